import ToastVocabulary

/// What each key does in the notification center: Up/Down move between entries (and to the header's
/// switch and "clear all" above the first), Left/Right and Tab along the focus stops (an entry, its
/// buttons, its reply field), Page Up/Down and Home/End jump, Enter invokes what has the focus,
/// Delete dismisses an open entry or forgets a closed one, Escape closes the center. Text goes to
/// the focused entry's reply field when it has one.
extension CenterList {
    package mutating func handle(_ key: CenterKey) -> CenterCommand {
        switch key {
        case .escape: return .close
        case .enter: return enter()
        case .delete:
            guard let index = focus.entry else { return .none }
            let entry = entries[index]
            return entry.isOpen ? .dismiss(entry.id) : .forget(entry.id)
        case .text(let text): return type(text)
        case .backspace:
            guard case .reply(let index) = focus, var draft = drafts[entries[index].id], !draft.isEmpty else { return .none }
            draft.removeLast()
            setDraft(draft, for: entries[index].id)
            return .redraw
        case .up, .down, .pageUp, .pageDown, .home, .end, .left, .right, .tab, .backTab:
            let old = (focus, scroll)
            move(key)
            revealFocus()
            return old == (focus, scroll) ? .none : .redraw
        }
    }

    private mutating func move(_ key: CenterKey) {
        let page = max(1, viewportHeight / max(1, metrics.entryHeight + metrics.gap))
        switch key {
        case .down: moveEntry(by: 1)
        case .up: moveEntry(by: -1)
        case .pageDown: moveEntry(by: page)
        case .pageUp: moveEntry(by: -page)
        case .home: focus = entries.isEmpty ? .doNotDisturb : .entry(0)
        case .end: focus = entries.isEmpty ? .clearAll : .entry(entries.count - 1)
        case .tab, .right: step(by: 1, wrapping: key == .tab)
        case .backTab, .left: step(by: -1, wrapping: key == .backTab)
        default: break
        }
    }

    /// Up and down between entries; above the first are the header's controls.
    private mutating func moveEntry(by delta: Int) {
        switch focus {
        case .doNotDisturb, .clearAll:
            if delta > 0, !entries.isEmpty { focus = .entry(min(delta - 1, entries.count - 1)) }
        case .entry(let i), .button(let i, _), .reply(let i):
            let target = i + delta
            if target < 0 {
                focus = .clearAll
            } else {
                focus = .entry(min(target, entries.count - 1))
            }
        }
    }

    /// Along the focus stops in Tab order (wrapping: Tab; not: the arrows, which stay within an entry).
    private mutating func step(by delta: Int, wrapping: Bool) {
        if !wrapping, let index = focus.entry {
            let own = stopsOf(index)
            if let at = own.firstIndex(of: focus), own.indices.contains(at + delta) { focus = own[at + delta] }
            return
        }
        let stops = everyStop
        guard let at = stops.firstIndex(of: focus) else { return }
        let next = at + delta
        if wrapping {
            focus = stops[(next % stops.count + stops.count) % stops.count]
        } else if stops.indices.contains(next), stops[next].entry == nil {
            focus = stops[next]
        }
    }

    private mutating func enter() -> CenterCommand {
        switch focus {
        case .doNotDisturb: return .toggleDoNotDisturb
        case .clearAll: return .clearAll
        case .entry(let i):
            let entry = entries[i]
            guard entry.isOpen else { return .restore(entry.id) }
            return entry.hasDefaultAction ? .invoke(entry.id, key: NotificationAction.defaultKey) : .none
        case .button(let i, let b):
            let entry = entries[i]
            return entry.isOpen ? .invoke(entry.id, key: entry.buttons[b].key) : .none
        case .reply(let i):
            let id = entries[i].id
            guard let text = drafts[id], !text.isEmpty else { return .none }
            setDraft(nil, for: id)
            return .reply(id, text)
        }
    }

    /// Typed text goes to the focused entry's reply field (which then takes the focus).
    private mutating func type(_ text: String) -> CenterCommand {
        guard let index = focus.entry, entries[index].replyPlaceholder != nil else { return .none }
        let id = entries[index].id
        let draft = (drafts[id] ?? "") + text.filter { !$0.isNewline }
        guard draft.utf8.count <= Self.maxDraftBytes else { return .none }
        setDraft(draft, for: id)
        focus = .reply(index)
        return .redraw
    }
}

extension CenterKey {
    /// Whether the key repeats while held (`KeyRepeat`): moving and typing do; a key that acts
    /// (Enter, Delete, Escape) or jumps (Home, End) acts once per press.
    package var repeats: Bool {
        switch self {
        case .up, .down, .left, .right, .tab, .backTab, .pageUp, .pageDown, .backspace, .text: true
        case .home, .end, .enter, .delete, .escape: false
        }
    }

    /// The center's reading of a key press (xkbcommon keysyms); nil: a key it does not use.
    package init?(keysym: UInt32, text: String, shift: Bool) {
        switch keysym {
        case 0xff52: self = .up
        case 0xff54: self = .down
        case 0xff51: self = .left
        case 0xff53: self = .right
        case 0xff09: self = shift ? .backTab : .tab
        case 0xfe20: self = .backTab  // ISO_Left_Tab: Shift+Tab
        case 0xff55: self = .pageUp
        case 0xff56: self = .pageDown
        case 0xff50: self = .home
        case 0xff57: self = .end
        case 0xff0d, 0xff8d: self = .enter  // Return, KP_Enter
        case 0xffff: self = .delete
        case 0xff08: self = .backspace
        case 0xff1b: self = .escape
        default:
            guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) else { return nil }
            self = .text(text)
        }
    }
}
