import ArgumentParser
import ToastProtocol
import XCTest
@testable import toast

/// `toast osd`'s words and the `osd` request on the wire.
final class OsdParsingTests: XCTestCase {
    func request(_ args: [String]) throws -> Request {
        let command = try Toast.parseAsRoot(["osd"] + args)
        return try XCTUnwrap(command as? Osd, "\(args) parsed as \(type(of: command))").request
    }

    func testTheWordsOfEachAction() throws {
        XCTAssertEqual(try request(["volume", "+5%"]), .osd(OsdParams(target: .volume, action: .by(5))))
        XCTAssertEqual(try request(["volume", "-5%"]), .osd(OsdParams(target: .volume, action: .by(-5))))
        XCTAssertEqual(try request(["volume", "set", "40%"]), .osd(OsdParams(target: .volume, action: .set(40))))
        XCTAssertEqual(try request(["volume", "up", "--sink", "hdmi", "--max", "150"]),
                       .osd(OsdParams(target: .volume, action: .up, device: "hdmi", max: 150)))
        XCTAssertEqual(try request(["mic", "toggle-mute", "--source", "usb"]),
                       .osd(OsdParams(target: .mic, action: .toggleMute, device: "usb")))
        XCTAssertEqual(try request(["brightness", "-10%", "--leds", "kbd"]),
                       .osd(OsdParams(target: .brightness, action: .by(-10), leds: "kbd")))
        XCTAssertEqual(try request(["capslock"]), .osd(OsdParams(target: .capslock, action: .show)))
        XCTAssertEqual(try request(["media", "play-pause"]), .osd(OsdParams(target: .media, action: .playPause)))
        XCTAssertEqual(try request(["media", "next"]), .osd(OsdParams(target: .media, action: .next)))
    }

    func testBadWordsAreUsageErrors() {
        for bad in [["volume", "louder"], ["volume", "set"], ["volume", "set", "250%"], ["volume", "+x%"], ["volume", "--5%"],
                    ["speakers", "up"], ["capslock", "up"], ["brightness", "mute"], ["volume", "up", "--device", "x"],
                    ["mic", "up", "--sink", "x"], ["volume", "up", "--max", "300"], [], ["media"], ["media", "up"],
                    ["volume", "next"], ["media", "stop", "--max", "5"]] {
            XCTAssertThrowsError(try request(bad), "\(bad) was accepted")
        }
    }

    func testTheRequestRoundTripsAndTheDecoderRefusesWhatTheCLIRefuses() throws {
        let params = OsdParams(target: .volume, action: .by(-5), device: "hdmi", max: 120)
        XCTAssertEqual(try Request.decode(line: Request.osd(params).encode()).get(), .osd(params))
        let refused = [
            #"{"v":1,"request":"osd","target":"capslock","action":"up"}"#,
            #"{"v":1,"request":"osd","target":"volume","action":"set"}"#,
            #"{"v":1,"request":"osd","target":"volume","action":"up","value":5}"#,
            #"{"v":1,"request":"osd","target":"volume","action":"by","value":500}"#,
            #"{"v":1,"request":"osd","target":"brightness","action":"up","device":"a","leds":"b"}"#,
            #"{"v":1,"request":"osd","target":"toaster","action":"up"}"#,
        ]
        for line in refused {
            guard case .failure = Request.decode(line: line) else { return XCTFail("accepted: \(line)") }
        }
        for reply in [Reply.ok(.level(LevelInfo(value: 55, muted: true))), .ok(.playback("Paused"))] {
            XCTAssertEqual(try Reply.decode(line: reply.encode()).get(), reply)
        }
    }
}
