import ToastCore
@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import ToastRender
import ToastVocabulary
import XCTest

/// Criteria sections in mako's syntax: parsing a header, and which notifications it matches.
final class CriteriaTests: XCTestCase {
    private func criteria(_ header: String, file: StaticString = #filePath, line: UInt = #line) -> Criteria {
        switch Criteria.parse(header) {
        case .success(let criteria): return criteria
        case .failure(let error):
            XCTFail("[\(header)]: \(error.message)", file: file, line: line)
            return Criteria()
        }
    }

    private func error(_ header: String) -> String? {
        if case .failure(let error) = Criteria.parse(header) { return error.message }
        return nil
    }

    func testTheMatchingTable() {
        let spotify = CriteriaSubject(appName: "Spotify", summary: "Song", body: "Artist")
        let chrome = CriteriaSubject(appName: "Google Chrome", appIcon: "google-chrome", summary: "Page",
                                     desktopEntry: "google-chrome")
        let mail = CriteriaSubject(appName: "Thunderbird", summary: "New mail", urgency: .low, category: "email",
                                   actionable: true)
        let build = CriteriaSubject(appName: "ci", summary: "Build failed: main", body: "3 tests\nfailed",
                                    urgency: .critical, expiring: false)
        let slack = CriteriaSubject(appName: "Slack", summary: "Ping", urgency: .critical)
        let all = [spotify, chrome, mail, build, slack]
        let table: [(header: String, matches: [CriteriaSubject])] = [
            ("app-name=Spotify", [spotify]),
            ("app-name=spotify", []),  // exact, as in mako
            (#"app-name="Google Chrome""#, [chrome]),
            (#"app-name=Google\ Chrome"#, [chrome]),
            ("app-icon=google-chrome", [chrome]),
            ("desktop-entry=google-chrome", [chrome]),
            ("urgency=low", [mail]),
            ("urgency=critical", [build, slack]),
            ("urgency=normal", [spotify, chrome]),
            ("category=email", [mail]),
            (#"summary="New mail""#, [mail]),
            (#"summary="New""#, []),  // exact, not a prefix
            (#"summary~="^Build (failed|passed)""#, [build]),
            (#"summary~="^(Song|Ping)$""#, [spotify, slack]),
            (#"body~="^3 tests""#, [build]),
            ("body=Artist", [spotify]),
            ("actionable", [mail]),
            ("actionable=false", [spotify, chrome, build, slack]),
            ("!actionable", [spotify, chrome, build, slack]),
            ("expiring", [spotify, chrome, mail, slack]),
            ("expiring=0", [build]),
            ("app-name=Slack urgency=critical", [slack]),
            ("app-name=Slack urgency=low", []),
            (#"urgency=critical summary~="^Build""#, [build]),
        ]
        for (header, expected) in table {
            let c = criteria(header)
            XCTAssertEqual(all.filter { c.matches($0) }.map(\.appName), expected.map(\.appName), "[\(header)]")
        }
    }

    /// `[mode=NAME]` matches while that mode is on; critical notifications break through
    /// do-not-disturb unless the section names their urgency.
    func testModeCriteria() {
        let quiet = criteria("mode=quiet"), dnd = criteria("mode=do-not-disturb")
        let dndCritical = criteria("mode=do-not-disturb urgency=critical")
        XCTAssertFalse(quiet.matches(CriteriaSubject(modes: ["default"])))
        XCTAssertTrue(quiet.matches(CriteriaSubject(modes: ["default", "quiet"])))
        XCTAssertTrue(quiet.matches(CriteriaSubject(urgency: .critical, modes: ["quiet"])))
        XCTAssertTrue(dnd.matches(CriteriaSubject(urgency: .normal, modes: ["do-not-disturb"])))
        XCTAssertFalse(dnd.matches(CriteriaSubject(urgency: .critical, modes: ["do-not-disturb"])), "breaks through")
        XCTAssertTrue(dndCritical.matches(CriteriaSubject(urgency: .critical, modes: ["do-not-disturb"])))
        XCTAssertFalse(dndCritical.matches(CriteriaSubject(urgency: .critical, modes: ["default"])))
        XCTAssertTrue(criteria("mode=default").matches(CriteriaSubject()), "the default mode is on at start")

        let rules = ConfigParser.parse("[mode=quiet]\ninvisible=1\n", path: "cfg").config.rules
        let request = NotificationRequest(appName: "a", summary: "s")
        XCTAssertFalse(rules.resolveArrival(request).request.rules.isInvisible)
        XCTAssertTrue(rules.resolveArrival(request, modes: ["quiet"]).request.rules.isInvisible)
    }

    /// `markup = 0` draws the body as the text it is; `actions = 0` draws no buttons; neither changes
    /// the style (the renderer's own stays in use).
    func testMarkupAndActionsPerRule() throws {
        let rules = ConfigParser.parse("[app-name=plain]\nmarkup=0\nactions=false\n", path: "cfg").config.rules
        var model = ToastModel()
        var request = NotificationRequest(appName: "plain", summary: "s", body: "a <b>b</b> & c")
        request.actions = [NotificationAction(key: "yes", label: "Yes")]
        let plainID = try model.notify(request, now: Instant(milliseconds: 0))
        let plain = try XCTUnwrap(model.notification(id: plainID))
        request.appName = "other"
        request.summary = "t"
        let otherID = try model.notify(request, now: Instant(milliseconds: 0))
        let other = try XCTUnwrap(model.notification(id: otherID))

        let look = try XCTUnwrap(rules.look(of: plain))
        let view = look.applied(to: Animator.view(of: plain), base: ToastStyle())
        XCTAssertEqual(view.body, "a &lt;b&gt;b&lt;/b&gt; &amp; c")
        XCTAssertEqual(view.actions, [])
        XCTAssertNil(view.style, "no style key: the renderer's style")
        XCTAssertNil(rules.look(of: other))
        XCTAssertEqual(Animator.view(of: other).actions, ["Yes"])
        XCTAssertEqual(ConfigParser.parse("markup = 1\nactions = maybe\n", path: "cfg").diagnostics.map(\.description),
                       ["cfg:2: 'actions' must be true or false, got 'maybe'"])
    }

    func testBadHeadersSayWhy() {
        XCTAssertEqual(error(#"app-name="Google Chrome"#), "unmatched quote")
        XCTAssertEqual(error(#"app-name=a\"#), "trailing backslash")
        XCTAssertEqual(error("urgency=urgent"), "urgency must be low, normal or critical, got 'urgent'")
        XCTAssertEqual(error("actionable=maybe"), "actionable must be true or false, got 'maybe'")
        XCTAssertEqual(error("app-name"), "criterion 'app-name' needs a value ('app-name=...')")
        XCTAssertEqual(error("anchor=top-left"), "mako criterion 'anchor' is not supported")
        XCTAssertNil(error("hidden"), "[hidden] is the \"+N more\" pill's section")
        XCTAssertEqual(error("mode=a=b"), "'a=b' is not a mode name (no blanks, quotes, '=' or brackets)")
        XCTAssertTrue(error("colour=red")?.hasPrefix("unknown criterion 'colour'") == true)
        XCTAssertTrue(error("summary~=(unclosed")?.hasPrefix("bad regular expression for summary~ '(unclosed'") == true,
                      error("summary~=(unclosed") ?? "")
    }

    func testASubjectComesFromARequestOrANotification() throws {
        var request = NotificationRequest(appName: "Mail", summary: "Hi", body: "there")
        request.category = "email"
        request.expireTimeout = .never
        request.actions = [NotificationAction(key: "default", label: "Open")]
        let subject = CriteriaSubject(request)
        XCTAssertEqual(subject.category, "email")
        XCTAssertFalse(subject.expiring)
        XCTAssertTrue(subject.actionable, "the default action counts, as in mako")
        var model = ToastModel()
        let id = try model.notify(request, now: Instant(milliseconds: 0))
        XCTAssertEqual(CriteriaSubject(try XCTUnwrap(model.notification(id: id))), subject)
    }
}

/// Resolving what the matching rules set, on its own.
final class RuleSetTests: XCTestCase {
    private func rules(_ text: String) -> RuleSet {
        let parsed = ConfigParser.parse(text, path: "cfg")
        XCTAssertEqual(parsed.diagnostics, [])
        return parsed.config.rules
    }

    func testLaterSectionsWinPerKeyAndEveryMatchingOneApplies() {
        let set = rules("""
            [app-name=Slack]
            background-color = #111111
            border-size = 3
            [urgency=critical]
            background = #222222
            [app-name=Slack urgency=critical]
            text-color = #333333
            """)
        let critical = set.look(for: CriteriaSubject(appName: "Slack", urgency: .critical))
        XCTAssertEqual(critical.background, Color(rgb: 0x222222), "the later section wins")
        XCTAssertEqual(critical.borderSize, 3, "keys the later section leaves alone stay")
        XCTAssertEqual(critical.textColor, Color(rgb: 0x333333))
        let normal = set.look(for: CriteriaSubject(appName: "Slack"))
        XCTAssertEqual(normal.background, Color(rgb: 0x111111))
        XCTAssertNil(normal.textColor)
        XCTAssertTrue(set.look(for: CriteriaSubject(appName: "Other")).isEmpty)
    }

    func testTheStyleOfANotification() throws {
        let set = rules("[category=email]\nbackground-color = #0000ffff\nwidth = 500\nfont = Serif 12\n")
        var model = ToastModel()
        var request = NotificationRequest(appName: "Mail", summary: "Hi")
        request.category = "email"
        let mail = try model.notify(request, now: Instant(milliseconds: 0))
        let other = try model.notify(NotificationRequest(appName: "Mail", summary: "Hi"), now: Instant(milliseconds: 0))
        let base = ToastStyle()
        let style = try XCTUnwrap(set.style(for: try XCTUnwrap(model.notification(id: mail)), base: base))
        XCTAssertEqual(style.backgrounds[.normal], Color(rgb: 0x0000ff))
        XCTAssertEqual(style.width, 500)
        XCTAssertEqual(style.summaryFont, "Serif Bold 12")
        XCTAssertEqual(style.borders[.normal], base.borders[.normal])
        XCTAssertNil(set.style(for: try XCTUnwrap(model.notification(id: other)), base: base), "no rule, no own style")
        XCTAssertNil(RuleSet().style(for: try XCTUnwrap(model.notification(id: mail)), base: base))
    }

    func testBehaviourReachesTheRequest() {
        let set = rules("""
            [app-name=Spotify]
            invisible = 1
            history = 0
            [app-name=ci]
            default-timeout = 2000
            ignore-timeout = 1
            """)
        let spotify = set.resolve(NotificationRequest(appName: "Spotify", summary: "Song"))
        XCTAssertTrue(spotify.rules.isInvisible)
        XCTAssertTrue(spotify.isTransient, "history = 0 keeps it out of the history")
        var ci = NotificationRequest(appName: "ci", summary: "Build")
        ci.expireTimeout = .after(60_000)
        let resolved = set.resolve(ci)
        XCTAssertEqual(resolved.rules, RuleDecision(defaultTimeout: .some(2000), ignoresClientTimeout: true))
        XCTAssertEqual(set.resolve(NotificationRequest(appName: "x")), NotificationRequest(appName: "x"))
    }

    func testTheModelObeysTheDecision() throws {
        var model = ToastModel()
        var request = NotificationRequest(appName: "ci", summary: "Build")
        request.expireTimeout = .after(60_000)
        request.rules = RuleDecision(defaultTimeout: .some(2000), ignoresClientTimeout: true)
        let timed = try model.notify(request, now: Instant(milliseconds: 0))
        XCTAssertEqual(model.notification(id: timed)?.waitingTimeout, 2000)
        request.rules = RuleDecision(isInvisible: true)
        let invisible = try model.notify(request, now: Instant(milliseconds: 0))
        let shown = try XCTUnwrap(model.notification(id: invisible))
        XCTAssertFalse(shown.isVisible, "not drawn")
        XCTAssertEqual(shown.expiresAt, Instant(milliseconds: 60_000), "its own timeout runs at once, as nothing will draw it")
        XCTAssertTrue(model.all.contains { $0.id == invisible }, "but listed")
    }

    func testAFileWithOnlyUrgencySectionsHasNoRules() {
        XCTAssertTrue(rules("[urgency=critical]\nbackground = #300000\ndefault-timeout = 0\n").isEmpty,
                      "what the global per-urgency values already do needs no rule: the path without rules stays")
        XCTAssertEqual(rules("[urgency=critical]\nborder-size = 3\n").rules.count, 1)
        XCTAssertEqual(rules("[app-name=a]\nwidth = 500\n[urgency=critical]\nbackground = #300000\n").rules.count, 2,
                       "after another section, file order counts: kept")
    }

    func testGlobalRuleOnlyKeysMakeARuleForEverything() {
        let set = rules("invisible = true\n")
        XCTAssertTrue(set.resolve(NotificationRequest(appName: "any")).rules.isInvisible)
    }
}
