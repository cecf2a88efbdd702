import ToastAccessibility
import XCTest

/// What a screen reader is told as toasts come and go (AccessibleTree), the paths it asks about, and
/// a body's markup removed (PlainText).
final class AccessibleTreeTests: XCTestCase {
    private func toast(_ id: UInt32, _ summary: String, actions: [String] = []) -> AccessibleTree.Toast {
        AccessibleTree.Toast(id: id, summary: summary, body: "", actions: actions.map { .init(key: $0, label: $0.uppercased()) },
                             critical: false)
    }

    func testChangesAreAddedChangedAndRemovedWithTheIndexEachChildHad() {
        var tree = AccessibleTree()
        let a = toast(1, "a"), b = toast(2, "b"), c = toast(3, "c")
        XCTAssertEqual(tree.update([a, b, c]), [.added(a, index: 0), .added(b, index: 1), .added(c, index: 2)])
        XCTAssertEqual(tree.update([a, b, c]), [], "nothing changed, nothing said")
        var b2 = b
        b2.summary = "b again"
        // a and c leave: c first (index 2), then a (index 0), as each index is the one it had then.
        XCTAssertEqual(tree.update([b2]), [.removed(c, index: 2), .removed(a, index: 0), .changed(b2)])
        XCTAssertEqual(tree.toasts, [b2])
    }

    func testPathsNameTheApplicationTheToastsAndTheirButtonsOnly() {
        var tree = AccessibleTree()
        let shown = toast(7, "Build failed", actions: ["open", "retry"])
        _ = tree.update([toast(3, "older"), shown])
        XCTAssertEqual(tree.node(at: AccessibleTree.rootPath), .application)
        XCTAssertEqual(tree.node(at: AccessibleTree.path(toast: 7)), .toast(shown, index: 1))
        XCTAssertEqual(tree.node(at: AccessibleTree.path(toast: 7, action: 1)), .button(shown, action: 1))
        XCTAssertEqual(tree.node(at: AccessibleTree.path(toast: 7, action: 1))?.name, "RETRY")
        XCTAssertEqual(tree.node(at: AccessibleTree.path(toast: 7))?.role, .notification)
        XCTAssertEqual(tree.children(of: .application), [AccessibleTree.path(toast: 3), AccessibleTree.path(toast: 7)])
        // Hostile or stale paths are nobody.
        for path in [AccessibleTree.path(toast: 8), AccessibleTree.path(toast: 7, action: 2), AccessibleTree.prefix + "/toast7/action-1",
                     AccessibleTree.prefix + "/toast7/x/y", AccessibleTree.prefix + "/toast", AccessibleTree.prefix + "/toast99999999999",
                     "/", AccessibleTree.prefix] {
            XCTAssertNil(tree.node(at: path), path)
        }
    }

    func testStatesAreTheTwoWordsOfTheBitSet() {
        XCTAssertEqual(AccessibleState.words([.showing, .visible]), [1 << 25 | 1 << 30, 0])
        XCTAssertEqual(AccessibleTree.Node.application.states, [])
    }

    /// The keyboard on a toast, then on a button Tab chose: the object that lost it and the one that has it,
    /// FOCUSED only on the latter; a focus on something not in the tree is none, and a toast that left
    /// with it is not told it lost it (its removal says so).
    func testTheFocusMovesFromObjectToObjectAndOnlyItsHolderIsFocused() {
        var tree = AccessibleTree()
        let shown = toast(7, "Build failed", actions: ["open", "retry"])
        _ = tree.update([toast(3, "older"), shown])
        let toastPath = AccessibleTree.path(toast: 7), retryPath = AccessibleTree.path(toast: 7, action: 1)
        XCTAssertEqual(tree.update(focus: .init(toast: 7)), .init(lost: nil, gained: toastPath))
        XCTAssertEqual(tree.update(focus: .init(toast: 7)), nil, "nothing moved, nothing said")
        XCTAssertTrue(tree.states(of: .toast(shown, index: 1)).contains(.focused))
        XCTAssertEqual(tree.update(focus: .init(toast: 7, action: 1)), .init(lost: toastPath, gained: retryPath))
        XCTAssertFalse(tree.states(of: .toast(shown, index: 1)).contains(.focused))
        XCTAssertTrue(tree.states(of: .button(shown, action: 1)).contains(.focused))
        XCTAssertFalse(tree.states(of: .button(shown, action: 0)).contains(.focused))
        XCTAssertEqual(tree.update(focus: .init(toast: 7, action: 5)), .init(lost: retryPath, gained: nil), "no such button")
        XCTAssertEqual(tree.update(focus: .init(toast: 99)), nil, "no such toast: still none")
        XCTAssertEqual(tree.update(focus: .init(toast: 7, action: 0)), .init(lost: nil, gained: AccessibleTree.path(toast: 7, action: 0)))
        _ = tree.update([toast(3, "older")])
        XCTAssertNil(tree.update(focus: .init(toast: 7, action: 0)), "it left with the focus: nothing to tell")
        XCTAssertNil(tree.focus)
        XCTAssertEqual(AccessibleState.words([.focused]), [1 << 12, 0])
    }

    func testTheBodyIsReadWithoutMarkup() {
        XCTAssertEqual(PlainText.fromMarkup("3 <b>errors</b> &amp; a <i>warning</i>"), "3 errors & a warning")
        XCTAssertEqual(PlainText.fromMarkup(#"see <a href="https://x">the log</a>"#), "see the log")
        XCTAssertEqual(PlainText.fromMarkup(#"<img src="x.png" alt="a chart"/> up"#), "a chart up")
        XCTAssertEqual(PlainText.fromMarkup("&amp;lt; stays one level"), "&lt; stays one level")
        XCTAssertEqual(PlainText.fromMarkup("1 < 2 and no tag"), "1 < 2 and no tag")
        XCTAssertEqual(PlainText.fromMarkup("a & b"), "a & b")
    }
}
