import ToastCore
@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import ToastRender
import XCTest
import ToastVocabulary

/// The configuration parser: every key, every kind of diagnostic, and the file shapes a user's editor
/// produces (comments, sections, CRLF, a byte order mark) or a broken file holds (huge lines, invalid
/// UTF-8, binary).
final class ConfigParserTests: XCTestCase {
    private func parse(_ text: String) -> ParsedConfig { ConfigParser.parse(text, path: "cfg") }

    func testHudColours() {
        let parsed = parse("""
            hud-background = #102030
            hud-border-color = #405060
            hud-bar-color = #ff0000
            hud-overdrive-color = #00ff00
            hud-muted-color = #0000ff80
            """)
        XCTAssertEqual(parsed.diagnostics.map(\.description), [])
        let style = parsed.config.style
        XCTAssertEqual(style.hudBackground, Color(rgb: 0x102030))
        XCTAssertEqual(style.hudBorder, Color(rgb: 0x405060))
        XCTAssertEqual(style.hudFill, Color(rgb: 0xff0000))
        XCTAssertEqual(style.hudOverflowColor, Color(rgb: 0x00ff00))
        XCTAssertEqual(style.hudMutedFill, Color(rgb: 0x0000ff).withAlpha(128.0 / 255.0))
        XCTAssertEqual(messages("hud-bar-color = red"), ["cfg:1: 'hud-bar-color' must be a colour #RRGGBB or #RRGGBBAA, got 'red'"])
    }

    private func messages(_ text: String) -> [String] { parse(text).diagnostics.map(\.description) }

    /// The one diagnostic `line` produces, as `cfg:1: message`.
    private func diagnostic(_ line: String, file: StaticString = #filePath, lineNumber: UInt = #line) -> String {
        let parsed = parse(line)
        XCTAssertEqual(parsed.diagnostics.count, 1, "\(line): \(parsed.diagnostics)", file: file, line: lineNumber)
        XCTAssertEqual(parsed.config, DaemonConfig(), "a bad line changed the configuration: \(line)",
                       file: file, line: lineNumber)
        return parsed.diagnostics.first?.description ?? ""
    }

    // MARK: - Shapes

    func testEmptyFileGivesTheDefaults() {
        for text in ["", "\n\n", "# only a comment\n", "   \t\n"] {
            let parsed = parse(text)
            XCTAssertEqual(parsed.config, DaemonConfig())
            XCTAssertEqual(parsed.diagnostics, [])
        }
    }

    func testDefaultsMatchTheDaemonsBuiltInPlacement() {
        let config = DaemonConfig()
        XCTAssertEqual(config.anchor, .topRight)
        XCTAssertEqual(config.hudAnchor, .bottomCenter)
        XCTAssertEqual(config.margins, Margins(all: 12))
        XCTAssertEqual(config.hudMargins, Margins(all: 64))
        XCTAssertTrue(config.animations)
        XCTAssertNil(config.output)
    }

    func testCommentsBlankLinesIndentationAndQuotes() {
        let parsed = parse("""
            # toastd
              width = 400
            \t# indented comment
            font="Iosevka 11"

            anchor=bottom-left
            output = "HEADLESS-2"
            """)
        XCTAssertEqual(parsed.diagnostics, [])
        XCTAssertEqual(parsed.config.style.width, 400)
        XCTAssertEqual(parsed.config.style.font, "Iosevka 11")
        XCTAssertEqual(parsed.config.anchor, .bottomLeft)
        XCTAssertEqual(parsed.config.output, "HEADLESS-2")
    }

    func testCRLFLineEndings() {
        let parsed = parse("width = 420\r\nanchor = top-left\r\nbackground = #112233\r\n")
        XCTAssertEqual(parsed.diagnostics, [])
        XCTAssertEqual(parsed.config.style.width, 420)
        XCTAssertEqual(parsed.config.anchor, .topLeft)
        XCTAssertEqual(parsed.config.style.backgrounds.normal, Color(rgb: 0x112233))
    }

    func testByteOrderMarkIsIgnored() {
        let parsed = ConfigParser.parse([0xEF, 0xBB, 0xBF] + Array("width = 500\n".utf8), path: "cfg")
        XCTAssertEqual(parsed.diagnostics, [])
        XCTAssertEqual(parsed.config.style.width, 500)
    }

    func testKeysAreCaseInsensitiveAndTheLastOneWins() {
        let parsed = parse("Width = 300\nwidth = 310\n")
        XCTAssertEqual(parsed.diagnostics, [])
        XCTAssertEqual(parsed.config.style.width, 310)
    }

    // MARK: - Every key

    func testTimeoutKeys() {
        let parsed = parse("""
            low-timeout = 1000
            normal-timeout = 2000
            critical-timeout = 3000
            history = 7
            hud-timeout = 900
            loading-grace = 0
            """)
        XCTAssertEqual(parsed.diagnostics, [])
        let notifications = parsed.config.notifications
        XCTAssertEqual(notifications.defaultTimeouts.low, 1000)
        XCTAssertEqual(notifications.defaultTimeouts.normal, 2000)
        XCTAssertEqual(notifications.defaultTimeouts.critical, 3000)
        XCTAssertEqual(notifications.historyLimit, 7)
        XCTAssertEqual(parsed.config.hud.barTimeout, 900)
        XCTAssertEqual(parsed.config.hud.loadingGrace, 0)
    }

    func testDefaultTimeoutSetsLowAndNormalAndZeroMeansNever() {
        let config = parse("default-timeout = 8000\n").config.notifications
        XCTAssertEqual(config.defaultTimeouts.low, 8000)
        XCTAssertEqual(config.defaultTimeouts.normal, 8000)
        XCTAssertNil(config.defaultTimeouts.critical, "default-timeout leaves critical alone")
        let never = parse("default-timeout = 0\ncritical-timeout = 0\n").config.notifications
        XCTAssertNil(never.defaultTimeouts.low)
        XCTAssertNil(never.defaultTimeouts.normal)
        XCTAssertNil(never.defaultTimeouts.critical)
    }

    func testASpecificTimeoutWinsOverDefaultTimeoutWhereverItIsWritten() {
        for text in ["low-timeout = 100\ndefault-timeout = 9000\n", "default-timeout = 9000\nlow-timeout = 100\n"] {
            let config = parse(text).config.notifications
            XCTAssertEqual(config.defaultTimeouts.low, 100, text)
            XCTAssertEqual(config.defaultTimeouts.normal, 9000, text)
        }
    }

    func testLookKeys() {
        let parsed = parse("""
            width = 420
            hud-width = 250
            font = DejaVu Sans Mono 12
            max-visible = 3
            background = #10203040
            text-color = #eeeeee
            border-color = #abcdef
            progress-color = #00ff00
            border-size = 2.5
            border-radius = 0
            padding = 20
            gap = 4
            """)
        XCTAssertEqual(parsed.diagnostics, [])
        let style = parsed.config.style
        XCTAssertEqual(style.width, 420)
        XCTAssertEqual(style.hudWidth, 250)
        XCTAssertEqual(style.font, "DejaVu Sans Mono 12")
        XCTAssertEqual(style.summaryFont, "DejaVu Sans Mono Bold 12")
        XCTAssertEqual(style.captionFont, "DejaVu Sans Mono 10.2")
        XCTAssertEqual(style.hudFont, "DejaVu Sans Mono 12")
        XCTAssertEqual(style.maxVisible, 3)
        let background = Color(rgb: 0x102030, alpha: Double(0x40) / 255)
        XCTAssertEqual(style.backgrounds[.low], background)
        XCTAssertEqual(style.backgrounds[.normal], background)
        XCTAssertEqual(style.backgrounds[.critical], background, "a global background covers critical too")
        XCTAssertEqual(style.summaryColor, Color(rgb: 0xeeeeee))
        XCTAssertEqual(style.bodyColor, Color(rgb: 0xeeeeee))
        for urgency in Urgency.allCases {
            XCTAssertEqual(style.borders[urgency], Color(rgb: 0xabcdef))
            XCTAssertEqual(style.accents[urgency], Color(rgb: 0x00ff00))
        }
        XCTAssertEqual(style.borderWidth, 2.5)
        XCTAssertEqual(style.cornerRadius, 0)
        XCTAssertEqual(style.padding, 20)
        XCTAssertEqual(style.gap, 4)
    }

    func testFontWithoutASizeGetsBoldAppended() {
        let style = parse("font = Monospace\n").config.style
        XCTAssertEqual(style.font, "Monospace")
        XCTAssertEqual(style.summaryFont, "Monospace Bold")
    }

    func testPlacementKeys() {
        let parsed = parse("""
            anchor = bottom-center
            hud-anchor = top-center
            margin = 5
            hud-margin = 1,2,3,4
            """)
        XCTAssertEqual(parsed.diagnostics, [])
        XCTAssertEqual(parsed.config.anchor, .bottomCenter)
        XCTAssertEqual(parsed.config.hudAnchor, .topCenter)
        XCTAssertEqual(parsed.config.margins, Margins(all: 5))
        XCTAssertEqual(parsed.config.hudMargins, Margins(top: 1, right: 2, bottom: 3, left: 4))
    }

    func testEveryAnchorName() {
        for anchor in ScreenAnchor.allCases {
            XCTAssertEqual(parse("anchor = \(anchor.rawValue)").config.anchor, anchor)
        }
        XCTAssertEqual(parse("anchor = Bottom-Right").config.anchor, .bottomRight)
    }

    func testMarginsTakeOneToFourNumbersLikeCSS() {
        XCTAssertEqual(parse("margin = 1,2").config.margins, Margins(top: 1, right: 2, bottom: 1, left: 2))
        XCTAssertEqual(parse("margin = 1, 2, 3").config.margins, Margins(top: 1, right: 2, bottom: 3, left: 2))
        XCTAssertEqual(parse("margin = 1 2 3 4").config.margins, Margins(top: 1, right: 2, bottom: 3, left: 4))
    }

    func testBehaviourKeys() {
        XCTAssertFalse(parse("animations = false").config.animations)
        XCTAssertFalse(parse("animations = off").config.animations)
        XCTAssertTrue(parse("animations = false\nanimations = yes").config.animations)
        XCTAssertFalse(parse("").config.clickableActions)
        XCTAssertTrue(parse("clickable-actions = true").config.clickableActions)
        XCTAssertTrue(parse("clickable-actions = on").config.clickableActions)
        XCTAssertFalse(parse("clickable-actions = yes\nclickable-actions = 0").config.clickableActions)
        XCTAssertEqual(parse("output = DP-1").config.output, "DP-1")
        XCTAssertNil(parse("output = DP-1\noutput =").config.output, "an empty output means the compositor's choice")
    }

    func testPictureKeysSetTheStyleGloballyAndPerRule() {
        let global = parse("max-icon-size = 64\nicon-location = Top\nicon-border-radius = 0\nicons = 0")
        XCTAssertEqual(global.diagnostics, [])
        XCTAssertEqual(global.config.style.imageSize, 64)
        XCTAssertEqual(global.config.style.imageLocation, .top)
        XCTAssertEqual(global.config.style.imageCornerRadius, 0)
        XCTAssertFalse(global.config.style.showsImages)
        XCTAssertTrue(parse("").config.style.showsImages)
        XCTAssertEqual(parse("icon-location = middle").diagnostics.map(\.message),
                       ["'icon-location' must be one of left, right, top, bottom, got 'middle'"])
        XCTAssertEqual(parse("max-icon-size = 400").diagnostics.map(\.message),
                       ["'max-icon-size' = 400 is out of range (8...128)"])

        let ruled = parse("[app-name=Big]\nmax-icon-size = 96\nicon-location = right\nicons = false")
        XCTAssertEqual(ruled.diagnostics, [])
        XCTAssertEqual(ruled.config.style.imageSize, 48, "a section leaves the global style alone")
        let look = ruled.config.rules.rules.first?.look
        XCTAssertEqual(look?.maxIconSize, 96)
        XCTAssertEqual(look?.iconLocation, .right)
        XCTAssertEqual(look?.icons, false)
        XCTAssertEqual(look?.applied(to: ToastStyle()).imageLocation, .right)
        XCTAssertEqual(ruled.config.rules.largestImageSize(base: 48), 96, "pictures are made for the largest box")
    }

    func testShadowKeys() {
        XCTAssertEqual(parse("").config.style.shadow, ToastStyle.Shadow(), "soft by default")
        XCTAssertNil(parse("shadow = none").config.style.shadow)
        XCTAssertNil(parse("shadow-radius = 20\nshadow = none").config.style.shadow, "none wins wherever it is written")
        let tuned = parse("shadow-color = #11223380\nshadow-radius = 20\nshadow = soft")
        XCTAssertEqual(tuned.diagnostics, [])
        XCTAssertEqual(tuned.config.style.shadow?.radius, 20)
        XCTAssertEqual(tuned.config.style.shadow?.color, Color(rgb: 0x112233, alpha: 128.0 / 255))
        XCTAssertEqual(parse("shadow = hard").diagnostics.map(\.message), ["'shadow' must be none or soft, got 'hard'"])
        XCTAssertEqual(parse("shadow-radius = 49").diagnostics.map(\.message), ["'shadow-radius' = 49 is out of range (0...48)"])
    }

    func testEveryDocumentedKeyIsAccepted() throws {
        let docs = try String(contentsOfFile: #filePath.replacingOccurrences(
            of: "Tests/ToastDaemonTests/ConfigParserTests.swift", with: "docs/configuration.md"), encoding: .utf8)
        for key in ConfigParser.keys {
            XCTAssertTrue(docs.contains("`\(key)`"), "docs/configuration.md does not describe \(key)")
        }
        let example = try String(contentsOfFile: #filePath.replacingOccurrences(
            of: "Tests/ToastDaemonTests/ConfigParserTests.swift", with: "docs/config.example"), encoding: .utf8)
        XCTAssertEqual(parse(example).diagnostics, [], "the example file has problems")
        XCTAssertNotEqual(parse(example).config, DaemonConfig(), "the example file sets nothing")
    }

    // MARK: - Sections

    func testUrgencySectionsOverrideTheGlobalValueWhateverTheOrder() {
        let parsed = parse("""
            [urgency=critical]
            border-color = #ff5555
            background = #300000
            default-timeout = 0
            [urgency=low]
            border-color = #333333
            background = #101010
            progress-color = #444444
            default-timeout = 2000
            [global]
            border-color = #00aaff
            default-timeout = 7000
            """)
        XCTAssertEqual(parsed.diagnostics, [])
        let style = parsed.config.style
        XCTAssertEqual(style.borders[.critical], Color(rgb: 0xff5555))
        XCTAssertEqual(style.borders[.low], Color(rgb: 0x333333))
        XCTAssertEqual(style.borders[.normal], Color(rgb: 0x00aaff))
        XCTAssertEqual(style.backgrounds[.critical], Color(rgb: 0x300000))
        XCTAssertEqual(style.backgrounds[.low], Color(rgb: 0x101010))
        XCTAssertEqual(style.backgrounds[.normal], ToastStyle().backgrounds.normal)
        XCTAssertEqual(style.accents[.low], Color(rgb: 0x444444))
        XCTAssertEqual(style.accents[.normal], ToastStyle().accents.normal)
        XCTAssertEqual(parsed.config.notifications.defaultTimeouts.low, 2000)
        XCTAssertEqual(parsed.config.notifications.defaultTimeouts.normal, 7000)
        XCTAssertNil(parsed.config.notifications.defaultTimeouts.critical)
    }

    func testSectionHeadersTolerateBlanks() {
        let parsed = parse("[ urgency = critical ]\nborder-color = #ff0000\n")
        XCTAssertEqual(parsed.diagnostics, [])
        XCTAssertEqual(parsed.config.style.borders.critical, Color(rgb: 0xff0000))
    }

    func testAKeyThatIsNotPerRuleIsReportedInASection() {
        let parsed = parse("[urgency=low]\nhud-anchor = top-left\n")
        XCTAssertEqual(parsed.diagnostics.map(\.description),
                       ["cfg:2: 'hud-anchor' cannot be set in a criteria section (there only: \(ConfigParser.ruleKeys.joined(separator: ", ")))"])
        XCTAssertEqual(parsed.config.hudAnchor, DaemonConfig().hudAnchor)
    }

    func testStackKeysInASectionMakeTheRulesStackAndLeaveTheGlobalOnes() {
        let parsed = parse("""
            output = all
            hud-output = focused
            fullscreen = hide-low
            [app-name=mail]
            anchor = bottom-left
            output = HDMI-A-1
            layer = top
            max-visible = 2
            fullscreen = hide
            [urgency=low]
            layer = top
            """)
        XCTAssertEqual(parsed.diagnostics, [])
        XCTAssertEqual(parsed.config.output, "all")
        XCTAssertEqual(parsed.config.hudOutput, "focused")
        XCTAssertEqual(parsed.config.fullscreen, .hideLow)
        XCTAssertEqual(parsed.config.anchor, DaemonConfig().anchor)
        XCTAssertEqual(parsed.config.rules.rules.map(\.stack), [
            StackPatch(anchor: .bottomLeft, output: "HDMI-A-1", layer: .top, maxVisible: 2, fullscreen: .hide),
            StackPatch(layer: .top),
        ], "an [urgency=low] section with only a layer is a rule, not dropped")
    }

    func testBadStackValuesAreReported() {
        let parsed = parse("layer = bottom\nfullscreen = maybe\n[app-name=x]\nlayer = background\n")
        XCTAssertEqual(parsed.diagnostics.map(\.description), [
            "cfg:1: 'layer' must be overlay or top, got 'bottom'",
            "cfg:2: 'fullscreen' must be show, hide-low or hide, got 'maybe'",
            "cfg:4: 'layer' must be overlay or top, got 'background'",
        ])
    }

    func testAnUnknownSectionIsReportedOnceAndItsLinesAreSkipped() {
        let parsed = parse("""
            [colour=firefox]
            width = 500
            nonsense = 1
            [urgency=critical]
            border-color = #ff0000
            """)
        XCTAssertEqual(parsed.diagnostics.count, 1, "\(parsed.diagnostics)")
        XCTAssertEqual(parsed.diagnostics.first?.line, 1)
        XCTAssertTrue(parsed.diagnostics[0].message.contains("unknown criterion 'colour'"), parsed.diagnostics[0].message)
        XCTAssertTrue(parsed.config.rules.isEmpty, "the skipped section made no rule")
        XCTAssertEqual(parsed.config.style.width, DaemonConfig().style.width)
        XCTAssertEqual(parsed.config.style.borders.critical, Color(rgb: 0xff0000), "a known section after it applies")
    }

    func testAnUnclosedSectionHeaderIsReported() {
        let parsed = parse("[urgency=low\nborder-color = #ff0000\n")
        XCTAssertEqual(parsed.diagnostics.count, 1)
        XCTAssertTrue(parsed.diagnostics[0].message.contains("lacks its closing ']'"), parsed.diagnostics[0].message)
        XCTAssertEqual(parsed.config.style.borders.low, ToastStyle().borders.low)
    }

    // MARK: - Diagnostics

    func testEachDiagnostic() {
        XCTAssertEqual(diagnostic("colour = red"), "cfg:1: unknown key 'colour'")
        XCTAssertEqual(diagnostic("just words"), "cfg:1: expected 'key = value', got 'just words'")
        XCTAssertEqual(diagnostic("= 5"), "cfg:1: missing key before '='")
        XCTAssertEqual(diagnostic("width ="), "cfg:1: 'width' needs a value")
        XCTAssertEqual(diagnostic("width = wide"), "cfg:1: 'width' must be a whole number, got 'wide'")
        XCTAssertEqual(diagnostic("width = 400 # wide"), "cfg:1: 'width' must be a whole number, got '400 # wide'")
        XCTAssertEqual(diagnostic("width = 10"), "cfg:1: 'width' = 10 is out of range (100...4000)")
        XCTAssertEqual(diagnostic("max-visible = 0"), "cfg:1: 'max-visible' = 0 is out of range (1...100)")
        XCTAssertEqual(diagnostic("default-timeout = -1"), "cfg:1: 'default-timeout' = -1 is out of range (0...86400000)")
        XCTAssertEqual(diagnostic("hud-timeout = 0"), "cfg:1: 'hud-timeout' = 0 is out of range (1...600000)")
        XCTAssertEqual(diagnostic("border-size = thick"), "cfg:1: 'border-size' must be a number, got 'thick'")
        XCTAssertEqual(diagnostic("border-size = nan"), "cfg:1: 'border-size' must be a number, got 'nan'")
        XCTAssertEqual(diagnostic("border-radius = 101"), "cfg:1: 'border-radius' = 101 is out of range (0...100)")
        XCTAssertEqual(diagnostic("animations = maybe"), "cfg:1: 'animations' must be true or false, got 'maybe'")
        XCTAssertEqual(diagnostic("clickable-actions = 2"), "cfg:1: 'clickable-actions' must be true or false, got '2'")
        XCTAssertEqual(diagnostic("anchor = middle"),
                       "cfg:1: 'anchor' must be one of top-left, top-center, top-right, bottom-left, bottom-center, bottom-right, got 'middle'")
        XCTAssertEqual(diagnostic("margin = 1,2,3,4,5"), "cfg:1: 'margin' must be 1 to 4 whole numbers, got '1,2,3,4,5'")
        XCTAssertEqual(diagnostic("margin = -3"), "cfg:1: 'margin' = -3 is out of range (0...10000)")
        XCTAssertEqual(diagnostic("hud-margin = a,b"), "cfg:1: 'hud-margin' must be 1 to 4 whole numbers, got 'a,b'")
        XCTAssertEqual(diagnostic("font = Sans 1000"), "cfg:1: 'font' size 1000 is out of range (4...200)")
    }

    func testBadColours() {
        for value in ["red", "#12345", "#1234567", "#GGHHII", "123456", "#12 456", "#+12345", "#"] {
            XCTAssertEqual(diagnostic("border-color = \(value)"),
                           "cfg:1: 'border-color' must be a colour #RRGGBB or #RRGGBBAA, got '\(value)'", value)
        }
        XCTAssertEqual(diagnostic("[urgency=critical]\nbackground = #zzz"),
                       "cfg:2: 'background' must be a colour #RRGGBB or #RRGGBBAA, got '#zzz'")
    }

    func testColoursWithAndWithoutAlpha() {
        let style = parse("text-color = #FF8000\nbackground = #00000080").config.style
        XCTAssertEqual(style.summaryColor, Color(rgb: 0xff8000))
        XCTAssertEqual(style.backgrounds.normal, Color(rgb: 0, alpha: Double(0x80) / 255))
    }

    func testBadLinesAreSkippedWithTheirLineNumbersAndTheRestApplies() {
        let parsed = parse("""
            width = 400
            anchor = sideways
            # comment
            border-color = blue
            gap = 3
            """)
        XCTAssertEqual(parsed.diagnostics.map(\.description), [
            "cfg:2: 'anchor' must be one of top-left, top-center, top-right, bottom-left, bottom-center, bottom-right, got 'sideways'",
            "cfg:4: 'border-color' must be a colour #RRGGBB or #RRGGBBAA, got 'blue'",
        ])
        XCTAssertEqual(parsed.config.style.width, 400)
        XCTAssertEqual(parsed.config.style.gap, 3)
        XCTAssertEqual(parsed.config.anchor, .topRight)
        XCTAssertEqual(parsed.warningCount, 2)
        XCTAssertFalse(parsed.fileRejected)
    }

    func testAHugeLineIsSkippedAndTheNextOneApplies() {
        let huge = "font = " + String(repeating: "x", count: 100_000)
        let parsed = parse("\(huge)\nwidth = 401\n")
        XCTAssertEqual(parsed.diagnostics.map(\.description), ["cfg:1: line too long (100007 bytes, at most 4096); skipped"])
        XCTAssertEqual(parsed.config.style.width, 401)
        XCTAssertEqual(parsed.config.style.font, ToastStyle().font)
    }

    func testALongValueIsQuotedShortenedInItsMessage() {
        let message = diagnostic("anchor = " + String(repeating: "y", count: 1000))
        XCTAssertLessThan(message.count, 200, message)
        XCTAssertTrue(message.hasSuffix("...'"), message)
    }

    func testInvalidUTF8SkipsOnlyItsLine() {
        let bytes = Array("width = 402\nfont = Sans".utf8) + [0xC3, 0x28, 0xFF] + Array(" 10\ngap = 9\n".utf8)
        let parsed = ConfigParser.parse(bytes, path: "cfg")
        XCTAssertEqual(parsed.diagnostics.map(\.description), ["cfg:2: not valid UTF-8; skipped"])
        XCTAssertEqual(parsed.config.style.width, 402)
        XCTAssertEqual(parsed.config.style.gap, 9)
        XCTAssertEqual(parsed.config.style.font, ToastStyle().font)
    }

    func testUTF8FontNamesAreFine() {
        let parsed = parse("font = Noto Sans CJK 日本語 11\n")
        XCTAssertEqual(parsed.diagnostics, [])
        XCTAssertEqual(parsed.config.style.font, "Noto Sans CJK 日本語 11")
    }

    func testABinaryFileIsRefusedWholeWithOneDiagnostic() {
        var bytes = Array("width = 403\n".utf8)
        bytes += [0x7F, 0x45, 0x4C, 0x46, 0x00, 0x01, 0x0A, 0xFF, 0x00]
        let parsed = ConfigParser.parse(bytes, path: "/x/config")
        XCTAssertTrue(parsed.fileRejected)
        XCTAssertEqual(parsed.config, DaemonConfig(), "nothing from a binary file applies")
        XCTAssertEqual(parsed.diagnostics.map(\.description), ["/x/config: not a text file (NUL byte at offset 16); ignored"])
    }

    func testAFileOfGarbageListsAtMostMaxDiagnostics() {
        let text = String(repeating: "garbage\n", count: 1000) + "width = 404\n"
        let parsed = parse(text)
        XCTAssertEqual(parsed.diagnostics.count, ConfigParser.maxDiagnostics)
        XCTAssertEqual(parsed.warningCount, 1000)
        XCTAssertEqual(parsed.diagnostics.last?.line, ConfigParser.maxDiagnostics)
        XCTAssertEqual(parsed.config.style.width, 404)
    }

    func testDiagnosticFormat() {
        XCTAssertEqual(ConfigDiagnostic(path: "/a/b", line: 7, message: "m").description, "/a/b:7: m")
        XCTAssertEqual(ConfigDiagnostic(path: "/a/b", line: nil, message: "m").description, "/a/b: m")
    }
}

/// Criteria sections as the parser reads them.
final class ConfigParserRuleTests: XCTestCase {
    private func parse(_ text: String) -> ParsedConfig { ConfigParser.parse(text, path: "cfg") }

    func testAMakoFileNeedsNoEdits() {
        let parsed = parse("""
            font=monospace 10
            background-color=#285577FF
            text-color=#ffffff
            border-color=#4C7899FF
            progress-color=over #5588AAFF
            max-history=20
            default-timeout=5000

            [urgency=high]
            border-color=#bf616a

            [app-name=Spotify]
            invisible=1

            [app-name="Google Chrome" urgency=critical]
            background-color=#ff0000
            ignore-timeout=1

            [summary~="^Build (failed|passed)"]
            border-color=#ff0000

            [actionable]
            border-size=3

            [mode=do-not-disturb]
            invisible=1
            """)
        XCTAssertEqual(parsed.diagnostics.map(\.description), [
            "cfg:9: section '[urgency=high]': urgency must be low, normal or critical, got 'high'; lines up to the next section are ignored",
        ])
        XCTAssertEqual(parsed.config.style.backgrounds.normal, Color(rgb: 0x285577))
        XCTAssertEqual(parsed.config.style.accents.normal, Color(rgb: 0x5588AA))
        XCTAssertEqual(parsed.config.notifications.historyLimit, 20)
        XCTAssertEqual(parsed.config.rules.rules.count, 5)
    }

    func testMakoKeysToastdDoesNotDoAreNamed() {
        XCTAssertEqual(parse("on-touch=dismiss").diagnostics.map(\.description),
                       ["cfg:1: mako key 'on-touch' is not supported"])
        XCTAssertEqual(parse("[app-name=a]\nsort=-time").diagnostics.map(\.description),
                       ["cfg:2: mako key 'sort' is not supported"])
    }

    func testBadValuesInASectionAreReported() {
        XCTAssertEqual(parse("[app-name=a]\ninvisible=maybe\nwidth=5\n").diagnostics.map(\.description), [
            "cfg:2: 'invisible' must be true or false, got 'maybe'",
            "cfg:3: 'width' = 5 is out of range (100...4000)",
        ])
    }

    func testBindings() {
        XCTAssertEqual(Binding.parse("exec  notify-send  \"a b\""), .success(.exec("notify-send  \"a b\"")))
        XCTAssertEqual(Binding.parse("Dismiss"), .success(.dismiss))
        XCTAssertEqual(Binding.parse("invoke-action reply"), .success(.invokeAction("reply")))
        XCTAssertEqual(Binding.parse("none"), .success(.none))
        XCTAssertEqual(parse("on-notify = exec").diagnostics.map(\.description), ["cfg:1: 'on-notify': 'exec' needs a command"])
        XCTAssertEqual(parse("[urgency=low]\non-button-left = dismiss now").diagnostics.map(\.description),
                       ["cfg:2: 'on-button-left': 'dismiss' takes nothing after it"])
        XCTAssertEqual(Binding.parse("dismiss-group"), .success(.dismissGroup))
        XCTAssertEqual(parse("on-button-right = dismiss-no-history").diagnostics.map(\.description),
                       ["cfg:1: 'on-button-right': mako binding 'dismiss-no-history' is not supported"])
        let parsed = parse("on-button-left = dismiss\n[app-name=x]\non-button-left = exec true\n")
        XCTAssertEqual(parsed.diagnostics, [])
        let rules = parsed.config.rules
        XCTAssertEqual(rules.behaviour(for: CriteriaSubject(appName: "x")).binding(for: .left), .exec("true"))
        XCTAssertEqual(rules.behaviour(for: CriteriaSubject(appName: "y")).binding(for: .left), .dismiss)
        XCTAssertEqual(rules.behaviour(for: CriteriaSubject(appName: "y")).binding(for: .right), .dismiss)
        XCTAssertEqual(RuleSet().behaviour(for: CriteriaSubject()).binding(for: .middle), .none)
        XCTAssertEqual(RuleSet().behaviour(for: CriteriaSubject()).binding(for: .left), .invokeDefaultAction)
    }
}
