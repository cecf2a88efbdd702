@testable import ToastConfig
@testable import ToastMigrate
import ToastRender
import XCTest

/// dunst's `[global]` and `[urgency_*]` settings: each one toastd has, as toastd's key and value.
final class GlobalsTests: XCTestCase {
    func testPlacementAndSize() throws {
        let converted = try convert("""
            [global]
                origin = bottom-left
                offset = 10x50
                width = 300
                notification_limit = 4
                layer = top
            """)
        XCTAssertEqual(converted.value("anchor"), "bottom-left")
        XCTAssertEqual(converted.value("margin"), "50,10", "vertical first (top/bottom), then horizontal")
        XCTAssertEqual(converted.value("width"), "300")
        XCTAssertEqual(converted.value("max-visible"), "4")
        XCTAssertEqual(converted.value("layer"), "top")
        XCTAssertEqual(converted.result.skipped, 0)
        XCTAssertEqual(converted.parsed.config.anchor, .bottomLeft)
        XCTAssertEqual(converted.parsed.config.margins.top, 50)
        XCTAssertEqual(converted.parsed.config.margins.left, 10)
    }

    func testNewerDunstSyntaxesAndLimits() throws {
        let converted = try convert("""
            [global]
            offset = (20, 30)
            width = (0, 5000)
            notification_limit = 0
            origin = center
            layer = bottom
            """)
        XCTAssertEqual(converted.value("margin"), "30,20")
        XCTAssertEqual(converted.value("width"), "4000", "the maximum, clamped to toastd's range")
        XCTAssertEqual(converted.value("max-visible"), "100", "dunst's 0 is no limit")
        XCTAssertNil(converted.value("anchor"))
        XCTAssertNil(converted.value("layer"))
        XCTAssertTrue(converted.note(line: 3)?.contains("one width") == true, converted.text)
        XCTAssertTrue(converted.note(line: 5)?.contains("not carried over") == true, converted.text)
        XCTAssertTrue(converted.note(line: 6)?.contains("never under windows") == true, converted.text)
    }

    func testLook() throws {
        let converted = try convert("""
            [global]
            font = "Iosevka Term 11"
            frame_width = 2
            frame_color = "#abc"
            corner_radius = 8
            padding = 10
            horizontal_padding = 12
            gap_size = 4
            icon_position = right
            max_icon_size = 64
            min_icon_size = 16
            markup = no
            icon_corner_radius = 3
            """)
        XCTAssertEqual(converted.value("font"), "Iosevka Term 11")
        XCTAssertEqual(converted.value("border-size"), "2")
        XCTAssertEqual(converted.value("border-color"), "#aabbcc", "#rgb doubled")
        XCTAssertEqual(converted.value("border-radius"), "8")
        XCTAssertEqual(converted.value("padding"), "10")
        XCTAssertEqual(converted.value("gap"), "4")
        XCTAssertEqual(converted.value("icon-location"), "right")
        XCTAssertEqual(converted.value("max-icon-size"), "64")
        XCTAssertEqual(converted.value("markup"), "false")
        XCTAssertEqual(converted.value("icon-border-radius"), "3")
        XCTAssertTrue(converted.note(line: 7)?.contains("same on every side") == true, converted.text)
        XCTAssertTrue(converted.note(line: 11)?.contains("min_icon_size") == true, converted.text)
        XCTAssertEqual(converted.parsed.config.style.padding, 10)
    }

    func testIconsOffAndHistory() throws {
        let converted = try convert("""
            [global]
            icon_position = off
            history_length = 5000
            indicate_hidden = no
            stack_duplicates = false
            """)
        XCTAssertEqual(converted.value("icons"), "false")
        XCTAssertEqual(converted.value("history"), "1000", "toastd keeps at most 1000")
        XCTAssertEqual(converted.value("invisible", in: "[hidden]"), "true", "no \"+N more\" pill")
        XCTAssertNil(converted.value("group-by"))
        XCTAssertEqual(converted.parsed.config.notifications.historyLimit, 1000)
    }

    func testMouseClicksBecomeBindingsThatTakeClicks() throws {
        let converted = try convert("""
            [global]
            mouse_left_click = close_current
            mouse_middle_click = do_action, close_current
            mouse_right_click = close_all
            """)
        XCTAssertEqual(converted.value("on-button-left"), "dismiss")
        XCTAssertEqual(converted.value("on-button-middle"), "invoke-default-action")
        XCTAssertEqual(converted.value("on-button-right"), "dismiss-all")
        XCTAssertEqual(converted.settings.filter { $0.key == "clickable-actions" }.count, 1, "written once")
        XCTAssertTrue(converted.parsed.config.clickableActions)
        XCTAssertEqual(converted.result.skipped + converted.result.differing, 0)

        let menu = try convert("[global]\nmouse_left_click = context\n")
        XCTAssertEqual(menu.value("on-button-left"), "none")
        XCTAssertTrue(menu.note(line: 2)?.contains("no context menu") == true, menu.text)
    }

    func testOutputs() throws {
        XCTAssertEqual(try convert("[global]\nfollow = mouse\nmonitor = 1\n").value("output"), "focused")
        XCTAssertEqual(try convert("[global]\nmonitor = DP-2\n").value("output"), "DP-2")
        let numbered = try convert("[global]\nmonitor = 1\n")
        XCTAssertNil(numbered.value("output"))
        XCTAssertTrue(numbered.note(line: 2)?.contains("names outputs") == true, numbered.text)
    }

    func testIconThemeAndPath() throws {
        let converted = try convert("""
            [global]
            icon_theme = "Papirus, Adwaita"
            icon_path = /usr/share/icons/a/:relative/b:/opt/c
            """)
        XCTAssertEqual(converted.value("icon-theme"), "Papirus")
        XCTAssertEqual(converted.value("icon-path"), "/usr/share/icons/a/:/opt/c")
        XCTAssertEqual(converted.result.differing, 2, converted.text)
    }

    func testValuesThatMeanWhatToastdDoesAreNotNoted() throws {
        let converted = try convert("[global]\nsort = yes\nignore_newline = no\ntransparency = 0\nalways_run_script = true\n")
        XCTAssertEqual(converted.result.skipped + converted.result.differing + converted.result.settings, 0, converted.text)
    }

    func testUrgencySections() throws {
        let converted = try convert("""
            [urgency_low]
                background = "#222222"
                foreground = "#888888"
                timeout = 10
            [urgency_normal]
                timeout = 1500ms
                highlight = "#00ff00, #0000ff"
            [urgency_critical]
                frame_color = "#ff0000"
                timeout = 0
                icon = /usr/share/icons/critical.png
            """)
        XCTAssertEqual(converted.headers, ["[urgency=low]", "[urgency=normal]", "[urgency=critical]"])
        XCTAssertEqual(converted.value("background", in: "[urgency=low]"), "#222222")
        XCTAssertEqual(converted.value("text-color", in: "[urgency=low]"), "#888888")
        XCTAssertEqual(converted.value("default-timeout", in: "[urgency=low]"), "10000", "seconds without a unit")
        XCTAssertEqual(converted.value("default-timeout", in: "[urgency=normal]"), "1500")
        XCTAssertEqual(converted.value("progress-color", in: "[urgency=normal]"), "#00ff00")
        XCTAssertEqual(converted.value("border-color", in: "[urgency=critical]"), "#ff0000")
        XCTAssertEqual(converted.value("default-timeout", in: "[urgency=critical]"), "0", "0 is never in both")
        XCTAssertTrue(converted.note(line: 11)?.contains("default icon") == true, converted.text)
        let config = converted.parsed.config
        XCTAssertEqual(config.notifications.defaultTimeouts.low, 10_000)
        XCTAssertEqual(config.notifications.defaultTimeouts.normal, 1500)
        XCTAssertNil(config.notifications.defaultTimeouts.critical)
        XCTAssertEqual(config.style.borders.critical, Color(rgb: 0xff0000))
    }

    func testTimeUnits() {
        XCTAssertEqual(DunstValue.milliseconds("10"), 10_000)
        XCTAssertEqual(DunstValue.milliseconds("250ms"), 250)
        XCTAssertEqual(DunstValue.milliseconds("2m"), 120_000)
        XCTAssertEqual(DunstValue.milliseconds("1h"), 3_600_000)
        XCTAssertEqual(DunstValue.milliseconds("1d"), 86_400_000)
        XCTAssertNil(DunstValue.milliseconds("-1"))
        XCTAssertNil(DunstValue.milliseconds("ten"))
        XCTAssertNil(DunstValue.milliseconds("5 fortnights"))
        XCTAssertNil(DunstValue.milliseconds("999999999999d"), "overflow is no time")
    }

    func testColours() {
        XCTAssertEqual(DunstValue.colour("#AbC"), "#aabbcc")
        XCTAssertEqual(DunstValue.colour("#abcd"), "#aabbccdd")
        XCTAssertEqual(DunstValue.colour("#123456"), "#123456")
        XCTAssertEqual(DunstValue.colour("#12345678"), "#12345678")
        XCTAssertEqual(DunstValue.colour("White"), "#ffffff")
        XCTAssertNil(DunstValue.colour("#12345"))
        XCTAssertNil(DunstValue.colour("#ggg"))
        XCTAssertNil(DunstValue.colour("papayawhip"), "names beyond the common ones are reported, not guessed")
    }
}
