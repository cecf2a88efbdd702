import ToastRender

extension ConfigKeys {
    /// What a toast shows: its text (markup, format, grouping), its buttons and its picture.
    static let content: [ConfigKey] = [
        ConfigKey("markup", Values.boolean, global: nil, section: { $0.look.markup = $1 }),
        ConfigKey("actions", Values.boolean, global: nil, section: { $0.look.actions = $1 }),
        ConfigKey("max-icon-size", Values.wholeNumber(8...128),
                  global: .specific { $0.style.imageSize = $1 }, section: { $0.look.maxIconSize = $1 }),
        ConfigKey("icon-location", Values.choice(of: ToastStyle.ImageLocation.self, listed: .oneOf),
                  global: .specific { $0.style.imageLocation = $1 }, section: { $0.look.iconLocation = $1 }),
        ConfigKey("icon-border-radius", Values.decimal(0...64),
                  global: .specific { $0.style.imageCornerRadius = $1 }, section: { $0.look.iconBorderRadius = $1 }),
        ConfigKey("icons", Values.boolean,
                  global: .specific { $0.style.showsImages = $1 }, section: { $0.look.icons = $1 }),
        ConfigKey("format", Values.format, global: nil, section: { $0.look.format = $1 }),
        ConfigKey("group-by", Values.groupBy, global: nil, section: { $0.look.groupBy = $1 }),
        ConfigKey("icon-theme", Values.themeName, global: .specific { $0.iconTheme = $1 }),
        ConfigKey("icon-path", Values.directories, global: .specific { $0.iconPaths = $1 }),
    ]
}
