@testable import ToastMigrate
import XCTest

/// What a broken or hostile dunstrc gets: a clear error for a file that is no text, a comment for
/// each line dunst itself would skip, and never an output toastd refuses or one without bounds.
final class OddInputTests: XCTestCase {
    func testANulByteIsAClearError() {
        let bytes = Array("[global]\nwidth = 300\n".utf8) + [0, 1, 2, 0xff] + Array("\nfont = x\n".utf8)
        guard case .failure(let error) = DunstMigration.convert(bytes, source: "f") else { return XCTFail("converted binary") }
        XCTAssertTrue(error.message.contains("not a text file (NUL byte at offset 21)"), error.message)
    }

    func testInvalidUTF8IsACommentAndTheRestConverts() throws {
        let bytes = Array("[global]\nwidth = 300\nfont = ".utf8) + [0xff, 0xfe, 0x1b] + Array("\npadding = 4\n".utf8)
        let converted = try convert(bytes)
        XCTAssertEqual(converted.value("width"), "300")
        XCTAssertEqual(converted.value("padding"), "4")
        let note = try XCTUnwrap(converted.note(line: 3), converted.text)
        XCTAssertTrue(note.contains("not valid UTF-8"), note)
        XCTAssertFalse(note.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "control characters are not printed")
    }

    func testAnUnterminatedQuoteIsNamedAndTheLineSkippedAsDunstDoes() throws {
        let converted = try convert("""
            [global]
            frame_color = "#ff0000
            font = "Sans 9
            width = 320
            """)
        XCTAssertNil(converted.value("border-color"))
        XCTAssertNil(converted.value("font"))
        XCTAssertEqual(converted.value("width"), "320")
        XCTAssertTrue(converted.note(line: 2)?.contains("a quote is not closed") == true, converted.text)
        XCTAssertTrue(converted.note(line: 3)?.contains("a quote is not closed") == true, converted.text)
    }

    func testDunstsIniDialect() throws {
        let converted = try convert("""
            ; a comment
            width = 200
            [global]
              frame_color = #ff0000
              separator_color = "#00ff00" # after the value
              font = Sans 9 ; comment
              format = "a #1; %s"
              no equals sign here
            [urgency_low
            [global]
              width = 310
              width = 320
            """)
        XCTAssertTrue(converted.note(line: 2)?.contains("before any section") == true, converted.text)
        XCTAssertTrue(converted.note(line: 4)?.contains("a colour must be quoted") == true, "an unquoted # is a comment: \(converted.text)")
        XCTAssertEqual(converted.value("font"), "Sans 9")
        XCTAssertEqual(converted.value("format"), "\"a #1; %s\"", "# and ; inside quotes are kept")
        XCTAssertTrue(converted.note(line: 8)?.contains("no '='") == true, converted.text)
        XCTAssertTrue(converted.note(line: 9)?.contains("without its ']'") == true, converted.text)
        XCTAssertEqual(converted.value("width"), "310", "the same section again is one section; its first width wins")
        XCTAssertTrue(converted.note(line: 12)?.contains("already set in [global] at line 11") == true, converted.text)
    }

    func testCRLFAndAByteOrderMark() throws {
        let converted = try convert([0xEF, 0xBB, 0xBF] + Array("[global]\r\nwidth = 333\r\n".utf8))
        XCTAssertEqual(converted.value("width"), "333")
    }

    func testALineOf100000CharactersIsCutInItsComment() throws {
        let long = String(repeating: "a", count: 100_000)
        let converted = try convert("[global]\nformat = \"\(long)\"\n[r]\nsummary = \(long)\nskip_display = yes\nwidth\(long) = 1\n")
        XCTAssertTrue(converted.note(line: 2)?.contains("longer than a toastd configuration line") == true, converted.text)
        XCTAssertTrue(converted.note(line: 4)?.contains("criteria are longer") == true, converted.text)
        XCTAssertTrue(converted.headers.isEmpty)
        let longest = converted.text.split(separator: "\n").map(\.utf8.count).max() ?? 0
        XCTAssertLessThan(longest, 400, "no comment repeats the whole line")
    }

    func testTenMegabytesAreAClearError() {
        let text = "[global]\nwidth = 300\n" + String(repeating: "# a comment\n", count: 10_000_000 / 12)
        guard case .failure(let error) = DunstMigration.convert(Array(text.utf8), source: "f") else {
            return XCTFail("a 10 MB dunstrc was converted")
        }
        XCTAssertTrue(error.message.contains("larger than a dunstrc (at most 1048576)"), error.message)
    }

    func testAMegabyteOfBadLinesGivesBoundedComments() throws {
        var text = "[global]\nwidth = 300\n"
        let junk = "bogus line without equals\n[r]\nnot_a_dunst_key = 1\n"
        text += String(repeating: junk, count: (DunstMigration.maxInputBytes - 100) / junk.utf8.count)
        let converted = try convert(text)
        XCTAssertEqual(converted.value("width"), "300")
        XCTAssertLessThan(converted.text.utf8.count, 200_000, "the notes are listed up to a bound, then counted")
        XCTAssertTrue(converted.text.contains("more lines not carried over, not listed here"))
        XCTAssertGreaterThan(converted.result.skipped, 40_000, "every bad line is counted")
    }

    func testAMegabyteOfRulesIsAClearErrorNotAFileToastdRefuses() {
        var text = ""
        var index = 0
        while text.utf8.count < DunstMigration.maxInputBytes - 100 {
            text += "[r\(index)]\nappname = a\(index)\nskip_display = yes\n"
            index += 1
        }
        guard case .failure(let error) = DunstMigration.convert(Array(text.utf8), source: "f") else {
            return XCTFail("a configuration larger than toastd reads was written")
        }
        XCTAssertTrue(error.message.contains("larger than toastd reads"), error.message)
    }
}
