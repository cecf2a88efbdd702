import Foundation
import ToastCore
@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import ToastVocabulary
import XCTest

/// The history file's text, and the file itself: written whole, read back, a bad one set aside.
final class HistoryFormatTests: XCTestCase {
    private func record(_ id: NotificationID, _ summary: String) -> HistoryRecord {
        var r = HistoryRecord(id: id, summary: summary, reason: .dismissed, createdAt: 1_700_000_000_000 + Int64(id),
                              closedAt: 1_700_000_001_000 + Int64(id))
        r.body = "line one\nline \"two\" ß"
        r.appName = "app"
        r.appIcon = "/usr/share/icons/x.png"
        r.actions = [NotificationAction(key: "default", label: "Open"), NotificationAction(key: "later", label: "Later")]
        r.urgency = .low
        r.category = "im"
        r.desktopEntry = "org.example.Chat"
        r.tag = "chat"
        r.progress = 12
        r.isResident = true
        r.expireTimeout = .never
        r.shownAt = 1_700_000_000_500
        return r
    }

    func testRecordsRoundTripNewestFirstOneLineEach() throws {
        let records = [record(3, "Three"), record(2, "Two"), HistoryRecord(id: 1, summary: "", reason: .expired, createdAt: 5, closedAt: 6)]
        let bytes = HistoryFormat.encode(records)
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("{\"toastd-history\":1}\n"), text)
        XCTAssertEqual(text.split(separator: "\n").count, 4, "a version line and one line per record")
        XCTAssertEqual(try HistoryFormat.decode(bytes).get(), records)
        XCTAssertEqual(try HistoryFormat.decode([]).get(), [], "an empty file is an empty history")
    }

    func testBlankLinesAndAMissingLastNewlineAreFine() throws {
        let records = [record(2, "Two"), record(1, "One")]
        let lines = String(decoding: HistoryFormat.encode(records), as: UTF8.self).split(separator: "\n")
        let spaced = Array(("\n\n" + lines.joined(separator: "\n\n\n")).utf8)
        XCTAssertEqual(try HistoryFormat.decode(spaced).get(), records)
        // A bad line is named by its place among the lines that are not blank.
        let bad = Array(("\n" + lines[0] + "\n\n" + lines[1] + "\n\n{\"id\":1}\n").utf8)
        guard case .failure(let error) = HistoryFormat.decode(bad) else { return XCTFail("read") }
        XCTAssertTrue(error.description.hasPrefix("line 3:"), error.description)
    }

    func testTheNewestRecordsThatFitAreKept() throws {
        let records = (1...50).reversed().map { record(NotificationID($0), String(repeating: "s", count: 200)) }
        let bytes = HistoryFormat.encode(records, maxBytes: 4000)
        XCTAssertLessThanOrEqual(bytes.count, 4000)
        let back = try HistoryFormat.decode(bytes).get()
        XCTAssertFalse(back.isEmpty)
        XCTAssertEqual(back, Array(records.prefix(back.count)), "the newest, in order")
    }

    func testForeignOrDamagedFilesAreRefusedWhole() {
        let good = HistoryFormat.encode([record(1, "One")])
        let cases: [(String, [UInt8])] = [
            ("no version line", Array("{\"id\":1}\n".utf8)),
            ("another program's JSON", Array("{\"version\":1}\n".utf8)),
            ("a newer version", Array("{\"toastd-history\":2}\n".utf8)),
            ("binary", [0, 1, 2, 0xFF, 10]),
            ("a cut line", Array(good.dropLast(10))),
            ("an unknown member", Array("{\"toastd-history\":1}\n{\"id\":1,\"summary\":\"a\",\"reason\":\"expired\",\"created\":1,\"closed\":2,\"x\":1}\n".utf8)),
            ("a bad reason", Array("{\"toastd-history\":1}\n{\"id\":1,\"summary\":\"a\",\"reason\":\"bored\",\"created\":1,\"closed\":2}\n".utf8)),
            ("id 0", Array("{\"toastd-history\":1}\n{\"id\":0,\"summary\":\"a\",\"reason\":\"expired\",\"created\":1,\"closed\":2}\n".utf8)),
        ]
        for (name, bytes) in cases {
            if case .success(let records) = HistoryFormat.decode(bytes) { XCTFail("\(name) was read: \(records)") }
        }
    }

    func testTheFileIsWrittenWholeAndABadOneIsSetAside() throws {
        let directory = NSTemporaryDirectory() + "toastd-history-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = HistoryFile(path: directory + "/state/toastd/history")
        XCTAssertEqual(file.load(), [], "no file: no history")
        let records = [record(2, "Two"), record(1, "One")]
        try file.save(HistoryFormat.encode(records))
        XCTAssertEqual(file.load(), records)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory + "/state/toastd"), ["history"],
                       "no temporary file left")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)

        try Data("garbage\n".utf8).write(to: URL(fileURLWithPath: file.path))
        XCTAssertEqual(file.load(), [])
        let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/state/toastd")
        XCTAssertEqual(names.count, 1)
        XCTAssertTrue(names[0].hasPrefix("history.corrupt-"), "\(names)")
    }

    func testDefaultPath() {
        XCTAssertEqual(HistoryFile.defaultPath { ["XDG_STATE_HOME": "/s", "HOME": "/h"][$0] }, "/s/toastd/history")
        XCTAssertEqual(HistoryFile.defaultPath { ["HOME": "/h"][$0] }, "/h/.local/state/toastd/history")
        XCTAssertEqual(HistoryFile.defaultPath { ["XDG_STATE_HOME": "rel", "HOME": "/h"][$0] }, "/h/.local/state/toastd/history")
        XCTAssertNil(HistoryFile.defaultPath { _ in nil })
    }
}
