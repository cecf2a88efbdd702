import XCTest
@testable import ToastConfig

/// Which toasts take clicks without `clickable-actions`: those a rule binds a pointer button for.
final class BoundButtonsTests: XCTestCase {
    private func rules(_ text: String) -> RuleSet {
        let parsed = ConfigParser.parse(Array(text.utf8), path: "cfg")
        XCTAssertEqual(parsed.diagnostics, [])
        return parsed.config.rules
    }

    func testASectionBindsOnlyTheToastsItMatches() {
        let set = rules("[app-name=chat]\non-button-left = invoke-default-action\n")
        XCTAssertTrue(set.bindsButtons)
        XCTAssertTrue(set.behaviour(for: CriteriaSubject(appName: "chat")).bindsButton)
        XCTAssertFalse(set.behaviour(for: CriteriaSubject(appName: "mail")).bindsButton)
    }

    func testAGlobalBindingCoversEveryToast() {
        let set = rules("on-button-right = dismiss\n")
        XCTAssertTrue(set.bindsButtons)
        XCTAssertTrue(set.behaviour(for: CriteriaSubject(appName: "anything")).bindsButton)
    }

    func testNoneAndOtherKeysBindNothing() {
        XCTAssertFalse(rules("on-button-left = none\n[urgency=low]\ninvisible = 1\n").bindsButtons)
        XCTAssertFalse(RuleSet().bindsButtons)
        // A later section's `none` unbinds what an earlier one bound.
        let set = rules("on-button-middle = dismiss-all\n[app-name=quiet]\non-button-middle = none\n")
        XCTAssertFalse(set.behaviour(for: CriteriaSubject(appName: "quiet")).bindsButton)
        XCTAssertTrue(set.behaviour(for: CriteriaSubject(appName: "loud")).bindsButton)
    }
}
