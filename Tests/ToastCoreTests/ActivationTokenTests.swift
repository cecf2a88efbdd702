import ToastVocabulary
import XCTest
@testable import ToastCore

/// An action invoked with an activation token: the token's event comes first, for the same id.
final class ActivationTokenTests: XCTestCase {
    func testTheTokenComesBeforeTheActionAndOnlyWhenThereIsOne() throws {
        var model = ToastModel()
        let origin = ClientID.dbus("app")
        let id = try model.notify(request("Deploy?", actions: [NotificationAction(key: "yes", label: "Yes")], origin: origin), now: t(0))
        _ = model.drainEvents()
        try model.invokeAction(id: id, key: "yes", activationToken: "token-1", now: t(1))
        XCTAssertEqual(Array(model.drainEvents().prefix(2)), [
            .activationToken(id: id, token: "token-1", origin: origin),
            .actionInvoked(id: id, key: "yes", origin: origin),
        ])
        let other = try model.notify(request("Again", actions: [NotificationAction(key: "yes", label: "Yes")]), now: t(2))
        _ = model.drainEvents()
        try model.invokeAction(id: other, key: "yes", activationToken: "", now: t(3))
        XCTAssertEqual(model.drainEvents().first, .actionInvoked(id: other, key: "yes", origin: nil), "an empty token is no token")
    }
}
