import ToastCore
import ToastRender
import ToastVocabulary
import XCTest
@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene

/// mako's `format`: parsed once, expanded per notification, escaped as mako escapes.
final class FormatStringTests: XCTestCase {
    private func format(_ text: String) throws -> FormatString {
        try FormatString.parse(text).get()
    }

    func testSpecifiersAndEscapes() throws {
        let f = try format("[%a] %s #%i (%g) 100%% \\\\ %b\\n%b")
        let fields = FormatString.Fields(appName: "mail", summary: "Hi", body: "there", id: 42, groupCount: 3)
        XCTAssertEqual(f.expand(fields), "[mail] Hi #42 (3) 100% \\ there\nthere")
    }

    func testMakosDefaultIsTheBoldSummaryOverTheBody() throws {
        let f = try format(FormatString.makoDefault)
        XCTAssertEqual(f.expand(.init(summary: "Build", body: "passed")), "<b>Build</b>\npassed")
        // Trimmed as mako trims: no body, no trailing newline.
        XCTAssertEqual(f.expand(.init(summary: "Build")), "<b>Build</b>")
    }

    func testTheSummaryIsAlwaysEscapedTheBodyOnlyWithoutMarkup() throws {
        let f = try format("%s|%b|%a")
        let markup = FormatString.Fields(appName: "<x>", summary: "<i>a</i> & b", body: "<i>c</i> & d")
        XCTAssertEqual(f.expand(markup), "&lt;i&gt;a&lt;/i&gt; &amp; b|<i>c</i> &amp; d|&lt;x&gt;")
        var plain = markup
        plain.bodyIsMarkup = false
        XCTAssertEqual(f.expand(plain), "&lt;i&gt;a&lt;/i&gt; &amp; b|&lt;i&gt;c&lt;/i&gt; &amp; d|&lt;x&gt;")
        XCTAssertTrue(MarkupSanitizer.isValidPangoMarkup(f.expand(markup)))
    }

    func testMakosLesserCases() throws {
        // A trailing % is text; a backslash before anything but n or \ stays; %h and %t (the pill's) are empty in a toast.
        XCTAssertEqual(try format("50%").expand(.init()), "50%")
        XCTAssertEqual(try format("a\\tb").expand(.init()), "a\\tb")
        XCTAssertEqual(try format("x%hy%t").expand(.init()), "xy")
    }

    func testBadFormatsSayWhy() {
        XCTAssertEqual(FormatString.parse("%s %q").failureMessage, "unknown specifier '%q' (known: %a %s %b %g %i %h %t %%)")
        XCTAssertEqual(FormatString.parse("<b>%s").failureMessage, "'<b>%s' is not valid Pango markup")
    }

    func testConfigReportsABadFormatAtItsLine() {
        let parsed = ConfigParser.parse("format = <b>%s</b>\n[app-name=x]\nformat = %z\n", path: "cfg")
        XCTAssertEqual(parsed.diagnostics.map(\.description),
                       ["cfg:3: 'format': unknown specifier '%z' (known: %a %s %b %g %i %h %t %%)"])
        let look = parsed.config.rules.look(for: CriteriaSubject(appName: "y"))
        XCTAssertEqual(look.format?.source, "<b>%s</b>", "the global format applies to all")
    }

    func testARuleFormatMakesTheViewsText() throws {
        let rules = ConfigParser.parse("[app-name=mail]\nformat = <i>%a</i>: %s\\n%b\n[app-name=plain]\nformat=%b\nmarkup=0\n",
                                       path: "cfg").config.rules
        var model = ToastModel()
        let mail = try model.notify(NotificationRequest(appName: "mail", summary: "New", body: "<b>hi</b>"), now: Instant(milliseconds: 0))
        let plain = try model.notify(NotificationRequest(appName: "plain", summary: "x", body: "<b>hi</b>"), now: Instant(milliseconds: 0))
        let other = try model.notify(NotificationRequest(appName: "other", summary: "x", body: "y"), now: Instant(milliseconds: 0))
        var animator = Animator(animations: false)
        animator.restyle(rules: rules, style: ToastStyle())
        let scene = animator.scene(for: model, now: Instant(milliseconds: 0), maxVisible: 5)
        let views = Dictionary(uniqueKeysWithValues: scene.toasts.map { ($0.id, $0.view) })
        XCTAssertEqual(views[mail]?.formatted, "<i>mail</i>: New\n<b>hi</b>")
        XCTAssertEqual(views[plain]?.formatted, "&lt;b&gt;hi&lt;/b&gt;")
        XCTAssertNil(views[other]?.formatted, "no format: drawn as toastd always drew it")
    }

    func testAFormattedToastIsOneTextLaidOutAsABody() throws {
        let renderer = ToastRenderer()
        let plain = ToastView(summary: "Summary", body: "Body", appName: "app")
        var formatted = plain
        formatted.formatted = "<b>Summary</b>\nBody"
        let one = renderer.measure(formatted, scale: 1)
        let three = renderer.measure(plain, scale: 1)
        XCTAssertEqual(one.width, three.width)
        XCTAssertLessThan(one.height, three.height, "no caption line above the text")
        var longer = formatted
        longer.formatted = "<b>Summary</b>\nBody\nAnother line"
        XCTAssertGreaterThan(renderer.measure(longer, scale: 1).height, one.height)
    }
}

/// `group-by`: which open notifications share one toast, on a hand-driven clock.
final class ToastGroupsTests: XCTestCase {
    private var model = ToastModel()
    private var animator = Animator(animations: true)

    private func at(_ ms: Int64) -> Instant { Instant(milliseconds: ms) }

    @discardableResult
    private func notify(_ app: String, _ summary: String, at ms: Int64) throws -> NotificationID {
        try model.notify(NotificationRequest(appName: app, summary: summary), now: at(ms))
    }

    private func rules(_ text: String) -> RuleSet {
        let parsed = ConfigParser.parse(text, path: "cfg")
        XCTAssertEqual(parsed.diagnostics, [])
        return parsed.config.rules
    }

    func testTheFieldsList() {
        XCTAssertEqual(try GroupField.parseList("app-name, summary").get(), [.appName, .summary])
        XCTAssertEqual(try GroupField.parseList("none").get(), [])
        XCTAssertEqual(ConfigParser.parse("group-by = app-name,colour\n", path: "cfg").diagnostics.map(\.description),
                       ["cfg:1: 'group-by': unknown group-by field 'colour' (known: app-name, app-icon, summary, body, urgency, category, desktop-entry, actionable, expiring, none)"])
    }

    func testEqualFieldsGroupTheNewestStandsForThem() throws {
        let a1 = try notify("chat", "one", at: 0)
        let b = try notify("mail", "x", at: 10)
        let a2 = try notify("chat", "two", at: 20)
        let a3 = try notify("chat", "three", at: 30)
        let groups = ToastGroups(model.all, rules: rules("group-by = app-name\n"), modes: [])
        XCTAssertEqual(groups.group(of: a1), [a3, a2, a1], "newest first")
        XCTAssertEqual(groups.count(of: a3), 3)
        XCTAssertFalse(groups.isCovered(a3))
        XCTAssertTrue(groups.isCovered(a1))
        XCTAssertEqual(groups.group(of: b), [b], "alone")
        XCTAssertEqual(groups.count(of: b), 1)
        XCTAssertTrue(ToastGroups(model.all, rules: RuleSet(), modes: []).isEmpty, "no group-by, no groups")
        // Only notifications whose rules group them by the same fields group.
        let onlyChat = ToastGroups(model.all, rules: rules("[app-name=chat]\ngroup-by=summary\n"), modes: [])
        XCTAssertTrue(onlyChat.isEmpty, "different summaries")
    }

    func testTheSceneShowsOneToastWithTheCount() throws {
        animator.restyle(rules: rules("[app-name=chat]\ngroup-by = app-name\n"), style: ToastStyle())
        try notify("chat", "one", at: 0)
        let other = try notify("mail", "x", at: 0)
        let s0 = animator.scene(for: model, now: at(0), maxVisible: 5)
        XCTAssertEqual(s0.toasts.count, 2)
        XCTAssertEqual(s0.toasts.first { $0.id != other }?.view.summary, "one", "alone: no count")

        try notify("chat", "two", at: 1000)
        let a3 = try notify("chat", "three", at: 2000)
        let s = animator.scene(for: model, now: at(3000), maxVisible: 5)
        XCTAssertEqual(s.toasts.map(\.id), [a3, other], "the group is its newest")
        XCTAssertEqual(s.toasts[0].view.summary, "(3) three", "mako's grouped format: the count first")
        XCTAssertEqual(s.hiddenCount, 0, "grouped ones are not \"+N more\"")

        // The newest closes on its own: the next one stands for the two left.
        _ = model.close(id: a3, reason: .expired, now: at(4000))
        let after = animator.scene(for: model, now: at(5000), maxVisible: 5)
        XCTAssertEqual(after.toasts.first { $0.id != other }?.view.summary, "(2) two")
    }

    func testAFormatShowsTheCountWhereItSays() throws {
        animator.restyle(rules: rules("group-by = app-name\nformat = %s [%g]\n"), style: ToastStyle())
        try notify("chat", "one", at: 0)
        try notify("chat", "two", at: 0)
        let s = animator.scene(for: model, now: at(0), maxVisible: 5)
        XCTAssertEqual(s.toasts.map(\.view.formatted), ["two [2]"])
        XCTAssertEqual(s.toasts[0].view.summary, "two", "the format shows the count; the summary is left alone")
    }
}

private extension Result where Failure == FormatError {
    var failureMessage: String? {
        if case .failure(let error) = self { return error.message }
        return nil
    }
}
