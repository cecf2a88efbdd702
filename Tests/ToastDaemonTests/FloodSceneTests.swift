import ToastCore
import ToastRender
@testable import ToastScene
import ToastVocabulary
import XCTest

/// A flood is one toast in the scene: the app and how many, over the newest text; other apps keep
/// their places and "+N more" does not count the flood's members.
final class FloodSceneTests: XCTestCase {
    func testAFloodIsOneToastBesideTheOtherApps() throws {
        var model = ToastModel()
        var animator = Animator(animations: false)
        _ = try model.notify(NotificationRequest(appName: "Mail", summary: "mail"), now: Instant(milliseconds: 0))
        for index in 0..<37 {
            _ = try model.notify(NotificationRequest(appName: "Chat", summary: "message <\(index)>", body: "hi"),
                                 now: Instant(milliseconds: Int64(index)))
        }
        let scene = animator.scene(for: model, now: Instant(milliseconds: 100), maxVisible: 5)
        XCTAssertEqual(scene.toasts.map(\.view.summary), ["Chat — 37 notifications", "mail"])
        XCTAssertEqual(scene.toasts.first?.view.body, "message &lt;36&gt;\nhi", "the newest text, its summary escaped")
        XCTAssertEqual(scene.hiddenCount, 0, "no \"+N more\" for the flood's members")
    }
}
