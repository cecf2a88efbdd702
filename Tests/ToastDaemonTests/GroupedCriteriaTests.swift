@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import ToastCore
import ToastRender
import ToastVocabulary
import XCTest

/// `[grouped]` and `[group-index=N]`: they match the toast drawn for a group (`group-by`) and change
/// its look only.
final class GroupedCriteriaTests: XCTestCase {
    private var model = ToastModel()
    private var animator = Animator(animations: false)

    private func rules(_ text: String) -> RuleSet {
        let parsed = ConfigParser.parse(text, path: "cfg")
        XCTAssertEqual(parsed.diagnostics, [])
        return parsed.config.rules
    }

    private func notify(_ app: String, _ summary: String) throws -> NotificationID {
        try model.notify(NotificationRequest(appName: app, summary: summary), now: Instant(milliseconds: 0))
    }

    func testGroupedAndGroupIndexMatchTheToastOfAGroup() throws {
        let alone = CriteriaSubject(appName: "chat")
        var drawnForAGroup = alone
        drawnForAGroup.groupIndex = 0
        let grouped = try Criteria.parse("grouped").get()
        XCTAssertTrue(grouped.matches(drawnForAGroup))
        XCTAssertFalse(grouped.matches(alone))
        XCTAssertTrue(try Criteria.parse("!grouped").get().matches(alone))
        XCTAssertTrue(try Criteria.parse("group-index=0").get().matches(drawnForAGroup))
        XCTAssertFalse(try Criteria.parse("group-index=1").get().matches(drawnForAGroup))
        XCTAssertTrue(try Criteria.parse("group-index=-1").get().matches(alone))
        XCTAssertFalse(try Criteria.parse("grouped app-name=mail").get().matches(drawnForAGroup), "every criterion must hold")

        if case .failure(let error) = Criteria.parse("group-index=first") {
            XCTAssertEqual(error.message, "group-index must be a number, -1 or more, got 'first'")
        } else {
            XCTFail("group-index=first was read")
        }
    }

    func testOnlyLookKeysInAGroupedSection() {
        let parsed = ConfigParser.parse("""
            [grouped]
            format = %s (%g)
            background-color = #0000ffff
            invisible = 1
            group-by = summary
            [group-index=0]
            anchor = bottom-left
            """, path: "cfg")
        XCTAssertEqual(parsed.diagnostics.map(\.description), [
            "cfg:4: 'invisible' cannot be set in a [grouped] or [group-index] section (a group is drawn as one toast: only its look follows)",
            "cfg:5: 'group-by' cannot be set in a [grouped] or [group-index] section (a group is drawn as one toast: only its look follows)",
            "cfg:7: 'anchor' cannot be set in a [grouped] or [group-index] section (a group is drawn as one toast: only its look follows)",
        ])
    }

    func testAGroupedSectionStylesTheGroupsToastOnly() throws {
        animator.restyle(rules: rules("""
            group-by = app-name
            [grouped]
            format = <b>%s</b> and %g in all
            background-color = #0000ffff
            """), style: ToastStyle())
        let one = try notify("chat", "one")
        let mail = try notify("mail", "alone")
        var scene = animator.scene(for: model, now: Instant(milliseconds: 0), maxVisible: 5)
        XCTAssertEqual(scene.toasts.map(\.view.formatted), [nil, nil], "nothing is grouped yet")
        XCTAssertEqual(scene.toasts.map(\.view.style), [nil, nil])

        let two = try notify("chat", "two")
        scene = animator.scene(for: model, now: Instant(milliseconds: 0), maxVisible: 5)
        XCTAssertEqual(scene.toasts.map(\.id), [two, mail])
        XCTAssertEqual(scene.toasts[0].view.formatted, "<b>two</b> and 2 in all")
        XCTAssertEqual(scene.toasts[0].view.style?.backgrounds.normal, Color(rgb: 0x0000ff))
        XCTAssertNil(scene.toasts[1].view.style, "a toast alone is not grouped")

        // Its group gone to one, the toast left is alone again.
        _ = model.close(id: two, reason: .dismissed, now: Instant(milliseconds: 0))
        scene = animator.scene(for: model, now: Instant(milliseconds: 0), maxVisible: 5)
        XCTAssertEqual(scene.toasts.map(\.id), [one, mail])
        XCTAssertNil(scene.toasts[0].view.formatted)
        XCTAssertNil(scene.toasts[0].view.style)
    }
}
