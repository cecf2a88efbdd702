@testable import ToastConfig
@testable import ToastMigrate
import ToastVocabulary
import XCTest

/// dunst's rule sections: filters as toastd criteria that match what dunst's did, modifying keys as
/// toastd's section keys, and a rule toastd cannot match left out whole with its reason.
final class DunstRuleTests: XCTestCase {
    func testSkipDisplayOfOneApp() throws {
        let converted = try convert("""
            [spotify]
                appname = Spotify
                skip_display = true
            """)
        XCTAssertEqual(converted.headers, ["[app-name=\"Spotify\"]"])
        XCTAssertEqual(converted.value("invisible", in: "[app-name=\"Spotify\"]"), "true")
        XCTAssertEqual(converted.rulesMatching(subject(app: "Spotify")).first?.behaviour.invisible, true)
        XCTAssertTrue(converted.rulesMatching(subject(app: "Spotify Premium")).isEmpty, "a glob without wildcards is exact")
    }

    func testEveryFilter() throws {
        let converted = try convert("""
            [all]
            appname = "Google Chrome"
            summary = "*failed*"
            body = "exit ?"
            icon = mail-unread
            category = email.arrived
            desktop_entry = org.gnome.Evolution
            msg_urgency = critical
            background = "#0000ff"
            """)
        let header = try XCTUnwrap(converted.headers.first)
        XCTAssertEqual(header, #"[app-name="Google Chrome" summary~="^.*failed.*$" body~="^exit .$" app-icon="mail-unread" category="email.arrived" desktop-entry="org.gnome.Evolution" urgency=critical]"#)
        let matching = subject(app: "Google Chrome", summary: "Build failed: main", body: "exit 1", icon: "mail-unread",
                               urgency: .critical, category: "email.arrived", desktopEntry: "org.gnome.Evolution")
        XCTAssertEqual(converted.rulesMatching(matching).count, 1)
        var other = matching
        other.body = "exit 12"
        XCTAssertTrue(converted.rulesMatching(other).isEmpty, "? is one character")
        other = matching
        other.urgency = .normal
        XCTAssertTrue(converted.rulesMatching(other).isEmpty)
    }

    func testGlobSpecialsAndBrackets() throws {
        let converted = try convert("""
            [dots]
            summary = "v1.2 [!x]*"
            background = "#010203"
            """)
        XCTAssertEqual(converted.headers, [#"[summary~="^v1\\.2 [^x].*$"]"#], "the dot is literal; [! is [^; the backslash doubled for the header")
        XCTAssertEqual(converted.rulesMatching(subject(summary: "v1.2 ready")).count, 1)
        XCTAssertTrue(converted.rulesMatching(subject(summary: "v1x2 ready")).isEmpty)
        XCTAssertTrue(converted.rulesMatching(subject(summary: "v1.2 xready")).isEmpty)
    }

    func testQuotesAndBackslashesInCriteria() throws {
        let converted = try convert(#"""
            [quoted]
            appname = say "hi"\now
            skip_display = yes
            """#)
        XCTAssertEqual(converted.rulesMatching(subject(app: #"say "hi"now"#)).count, 1, converted.text)
    }

    func testAGlobOnAFieldToastdMatchesExactlyLeavesTheRuleOut() throws {
        let converted = try convert("""
            [chromes]
            appname = Chrom*
            skip_display = yes
            [later]
            appname = Firefox
            skip_display = yes
            """)
        XCTAssertEqual(converted.headers, ["[app-name=\"Firefox\"]"], "the glob rule is not written at all")
        XCTAssertTrue(converted.note(line: 2)?.contains("matches this field exactly") == true, converted.text)
        XCTAssertTrue(converted.note(line: 3)?.contains("the rule is left out: line 2") == true, converted.text)
        XCTAssertEqual(converted.result.skipped, 2)
    }

    func testFiltersToastdCannotMatch() throws {
        for filter in ["match_transient = yes", "stack_tag = volume", "match_dbus_timeout = 0"] {
            let converted = try convert("[r]\n\(filter)\nskip_display = yes\n")
            XCTAssertTrue(converted.headers.isEmpty, filter)
            XCTAssertTrue(converted.note(line: 2)?.contains("cannot match") == true, converted.text)
        }
        let off = try convert("[r]\nappname = x\nenabled = no\nskip_display = yes\n")
        XCTAssertTrue(off.headers.isEmpty)
        XCTAssertTrue(off.note(line: 3)?.contains("turned off") == true, off.text)
    }

    func testTransientKeptOutOfHistoryIsWhatToastdDoes() throws {
        let converted = try convert("[transient_history_ignore]\nmatch_transient = yes\nhistory_ignore = yes\n")
        XCTAssertTrue(converted.headers.isEmpty)
        XCTAssertEqual(converted.result.skipped, 0)
        XCTAssertTrue(converted.note(line: 3)?.contains("already") == true, converted.text)
    }

    func testRegexSyntax() throws {
        let converted = try convert("""
            [global]
            enable_posix_regex = true
            [build]
            summary = "^Build (failed|passed)"
            background = "#ff0000"
            [app]
            appname = "^Slack$"
            skip_display = yes
            [loose]
            appname = Spotify
            skip_display = yes
            [bad]
            summary = "(unclosed"
            skip_display = yes
            """)
        XCTAssertEqual(converted.headers, [#"[summary~="^Build (failed|passed)"]"#, #"[app-name="Slack"]"#, #"[app-name="Spotify"]"#])
        XCTAssertEqual(converted.rulesMatching(subject(summary: "Build passed: x")).count, 1)
        XCTAssertTrue(converted.note(line: 10)?.contains("exactly") == true, "an unanchored name is exact, with a note: \(converted.text)")
        XCTAssertTrue(converted.note(line: 13)?.contains("not a regular expression toastd can compile") == true, converted.text)
    }

    func testActions() throws {
        let converted = try convert("""
            [r]
            appname = app
            history_ignore = yes
            timeout = 3s
            override_dbus_timeout = 20
            foreground = "#ffffff"
            fullscreen = delay
            set_stack_tag = volume
            markup = strip
            icon_position = top
            new_icon = /tmp/x.png
            urgency = critical
            override_pause_level = 60
            set_transient = yes
            """)
        let header = "[app-name=\"app\"]"
        XCTAssertEqual(converted.value("history", in: header), "false")
        XCTAssertEqual(converted.value("default-timeout", in: header), "20000", "the override comes later and wins, as in dunst")
        XCTAssertEqual(converted.value("ignore-timeout", in: header), "true")
        XCTAssertEqual(converted.value("text-color", in: header), "#ffffff")
        XCTAssertEqual(converted.value("fullscreen", in: header), "hide")
        XCTAssertEqual(converted.value("group-by", in: header), "app-name")
        XCTAssertEqual(converted.value("markup", in: header), "true")
        XCTAssertEqual(converted.value("icon-location", in: header), "top")
        for line in [11, 12, 13] {
            XCTAssertTrue(converted.note(line: line)?.contains("not carried over") == true, "line \(line): \(converted.text)")
        }
        let rule = try XCTUnwrap(converted.rulesMatching(subject(app: "app")).first)
        XCTAssertEqual(rule.behaviour.history, false)
        XCTAssertEqual(rule.behaviour.ignoreTimeout, true)
        XCTAssertEqual(rule.stack.fullscreen, .hide)
    }

    func testFormat() throws {
        let converted = try convert(#"""
            [global]
            format = "<b>%a</b> %s %p\n%b %i 100%"
            [plain]
            appname = x
            format = "%s"
            [hidden]
            appname = y
            format = ""
            [broken]
            appname = z
            format = "<b>%s"
            """#)
        XCTAssertEqual(converted.value("format"), #""<b>%a</b> %s \n%b  100%%""#)
        XCTAssertTrue(converted.note(line: 2)?.contains("%p, %i") == true, converted.text)
        XCTAssertEqual(converted.value("format", in: "[app-name=\"x\"]"), "\"%s\"")
        XCTAssertEqual(converted.value("invisible", in: "[app-name=\"y\"]"), "true", "an empty format hides it, as dunst drops it")
        XCTAssertEqual(converted.value("history", in: "[app-name=\"y\"]"), "false")
        XCTAssertNil(converted.value("format", in: "[app-name=\"z\"]"))
        XCTAssertTrue(converted.note(line: 11)?.contains("is not closed") == true, converted.text)
    }

    func testFormatMarkupCheck() {
        XCTAssertNil(MarkupCheck.problem("<b>a</b> <span foreground=\"#ff0000\">x</span> &amp; &#233; >"))
        XCTAssertNotNil(MarkupCheck.problem("<blink>a</blink>"))
        XCTAssertNotNil(MarkupCheck.problem("<b>a</i>"))
        XCTAssertNotNil(MarkupCheck.problem("a & b"))
        XCTAssertNotNil(MarkupCheck.problem("<span weight=\"bold\">x</span>"))
        XCTAssertNotNil(MarkupCheck.problem("a < b"))
        XCTAssertNotNil(MarkupCheck.problem("< b>x</b>"), "no blank after '<' (found by the dunstrc fuzz target)")
        XCTAssertNotNil(MarkupCheck.problem("<b>x</ b>"))
    }

    func testScriptRunsWithDunstsVariablesAndArguments() throws {
        let converted = try convert("""
            [logger]
            appname = Mail
            script = ~/bin/it's log.sh
            """)
        let command = try XCTUnwrap(converted.value("on-notify", in: "[app-name=\"Mail\"]"))
        XCTAssertTrue(command.hasPrefix("exec "), command)
        XCTAssertTrue(command.contains(#"~/'bin/it'\''s log.sh' "$TOASTD_APP_NAME" "$TOASTD_SUMMARY" "$TOASTD_BODY" '' "$u""#), command)
        XCTAssertTrue(command.contains(#"DUNST_SUMMARY="$TOASTD_SUMMARY""#), command)
        guard case .exec(let shell)? = converted.rulesMatching(subject(app: "Mail")).first?.behaviour.onNotify else {
            return XCTFail("no exec binding: \(converted.text)")
        }
        XCTAssertEqual("exec " + shell, command)
    }

    func testRuleWithoutFiltersAppliesToEverything() throws {
        let converted = try convert("""
            [urgency_low]
            timeout = 4
            [everything]
            history_ignore = yes
            timeout = 2
            """)
        XCTAssertEqual(converted.value("history", in: "[global]"), "0", "kept out for all: a history of none")
        XCTAssertEqual(converted.value("critical-timeout", in: "[global]"), "2000", "dunst's rule times critical ones out too")
        XCTAssertEqual(converted.parsed.config.notifications.historyLimit, 0)
    }

    func testFiltersInSpecialSectionsAreNoted() throws {
        let converted = try convert("[urgency_low]\nappname = x\n[global]\nsummary = y\n")
        XCTAssertTrue(converted.note(line: 2)?.contains("no filters") == true, converted.text)
        XCTAssertTrue(converted.note(line: 4)?.contains("no filters") == true, converted.text)
    }
}
