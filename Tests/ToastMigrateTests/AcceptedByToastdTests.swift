@testable import ToastMigrate
import XCTest

/// Whatever the converter writes, toastd's parser takes with no warning: dunstrcs made of every key
/// dunst knows with hostile values (quotes, comment characters, markup, globs, regular expressions,
/// huge and negative numbers, non-ASCII text), in sections of every kind.
final class AcceptedByToastdTests: XCTestCase {
    static let keys = [
        "appname", "summary", "body", "icon", "category", "desktop_entry", "msg_urgency", "match_transient", "stack_tag",
        "background", "foreground", "frame_color", "highlight", "timeout", "override_dbus_timeout", "skip_display",
        "history_ignore", "set_transient", "format", "markup", "icon_position", "max_icon_size", "min_icon_size",
        "fullscreen", "script", "set_stack_tag", "new_icon", "urgency", "override_pause_level", "enabled",
        "origin", "offset", "width", "height", "notification_limit", "indicate_hidden", "font", "frame_width",
        "corner_radius", "icon_corner_radius", "gap_size", "padding", "horizontal_padding", "history_length",
        "stack_duplicates", "mouse_left_click", "mouse_middle_click", "mouse_right_click", "layer", "follow",
        "monitor", "icon_theme", "icon_path", "enable_posix_regex", "enable_pcre_regex", "sort", "separator_color",
        "bogus_key", "",
    ]
    static let values = [
        "", "0", "1", "-1", "yes", "no", "true", "off", "300", "99999999999999999999", "(0, 300)", "10x50", "-5x3",
        "\"#ff0000\"", "#ff0000", "\"#abc\"", "\"#12345\"", "red", "Sans 10", "Sans 1000", "\"Sans \\\"Bold\\\" 9\"",
        "*", "Chrom*", "^Slack$", "a[b", "[!x]?", "(unclosed", "\\d+", "say \"hi\"", "back\\slash", "semi; colon",
        "\"<b>%s</b>\\n%b %i %p %z %\"", "\"<b>%s\"", "\"a & b\"", "\"<span foreground='#f00'>%s</span>\"",
        "top-left", "center", "overlay", "bottom", "mouse", "delay", "pushback", "strip", "full", "off", "left",
        "do_action, close_current", "close_all", "context", "/bin/true", "~/bin/x y.sh", "/a:/b:rel", "ünïcødé ✓",
        "low", "critical", "Papirus, Adwaita", "1500ms", "2m", "5 fortnights", "\t  spaced  \t",
    ]
    static let sections = ["global", "urgency_low", "urgency_normal", "urgency_critical", "experimental", "shortcuts",
                           "rule", "rule two", "spotify", "r]x", ""]

    /// A deterministic generator (a linear congruential one), so a failure can be replayed.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    func testRandomDunstrcsAreAllAccepted() throws {
        var generator = Generator(state: 35)
        for round in 0..<300 {
            var text = ""
            for _ in 0..<(1 + generator.next(5)) {
                text += "[\(Self.sections[generator.next(Self.sections.count)])]\n"
                for _ in 0..<generator.next(12) {
                    text += "\(Self.keys[generator.next(Self.keys.count)]) = \(Self.values[generator.next(Self.values.count)])\n"
                }
            }
            let converted = try convert(text)
            XCTAssertGreaterThan(converted.text.utf8.count, 0, "round \(round)")
            if converted.parsed.warningCount > 0 { XCTFail("round \(round), from:\n\(text)"); return }
        }
    }

    /// Every key with every value, once in a rule and once in [global].
    func testEveryKeyWithEveryValueIsAccepted() throws {
        for section in ["global", "urgency_critical", "rule"] {
            var text = ""
            for (index, key) in Self.keys.enumerated() {
                for value in Self.values {
                    text += "[\(section)\(section == "rule" ? String(index) : "")]\nappname = x\n\(key) = \(value)\n"
                }
            }
            _ = try convert(text)
        }
    }
}
