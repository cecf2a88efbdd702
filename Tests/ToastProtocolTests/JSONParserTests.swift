import ToastVocabulary
import XCTest
@testable import ToastProtocol

final class JSONParserTests: XCTestCase {
    func parse(_ bytes: [UInt8]) -> Result<JSONValue, ProtocolError> { JSONParser.parse(bytes) }

    func testAcceptsValidDocuments() throws {
        let cases: [(String, JSONValue)] = [
            ("null", .null),
            (" true ", .bool(true)),
            ("false", .bool(false)),
            ("0", .int(0)),
            ("-12", .int(-12)),
            ("9223372036854775807", .int(Int64.max)),
            ("-9223372036854775808", .int(Int64.min)),
            ("9223372036854775808", .double(9223372036854775808)),
            ("1.5", .double(1.5)),
            ("-0.25e2", .double(-25)),
            ("1E3", .double(1000)),
            ("\"\"", .string("")),
            ("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", .string("a\"b\\c/d\u{8}\u{C}\n\r\t")),
            ("\"\\u00e9\\u20AC\"", .string("é€")),
            ("\"\\ud83d\\ude00\"", .string("😀")),
            ("\"\\u0000\"", .string("\u{0}")),
            ("\"héllo 😀\"", .string("héllo 😀")),
            ("[]", .array([])),
            ("[1, [2, []], {}]", .array([.int(1), .array([.int(2), .array([])]), .object(JSONObject())])),
            ("\t{\"b\": 1, \"a\": [true, null]}\r\n",
             .object(JSONObject([("b", .int(1)), ("a", .array([.bool(true), .null]))]))),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try JSONParser.parse(text).get(), expected, text)
        }
    }

    func testKeepsObjectKeyOrder() throws {
        guard case .object(let o) = try JSONParser.parse(#"{"z":1,"a":2,"m":3}"#).get() else {
            return XCTFail("not an object")
        }
        XCTAssertEqual(o.keys, ["z", "a", "m"])
    }

    func testAcceptsNestingUpToTheLimit() throws {
        let depth = ProtocolLimits.maxDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        XCTAssertNoThrow(try JSONParser.parse(text).get())
        let objects = String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        XCTAssertNoThrow(try JSONParser.parse(objects).get())
    }

    /// Malformed documents, each with the code it must produce.
    func testRejectsMalformedDocumentsWithTheirCodes() {
        let deep = String(repeating: "[", count: ProtocolLimits.maxDepth + 1)
            + String(repeating: "]", count: ProtocolLimits.maxDepth + 1)
        let deepObject = String(repeating: #"{"a":"#, count: ProtocolLimits.maxDepth) + "{}"
            + String(repeating: "}", count: ProtocolLimits.maxDepth)
        let cases: [(String, [UInt8], ErrorCode)] = [
            ("empty", [], .invalidJSON),
            ("only whitespace", Array("  ".utf8), .invalidJSON),
            ("truncated object", Array(#"{"a":1"#.utf8), .invalidJSON),
            ("truncated key", Array(#"{"a"#.utf8), .invalidJSON),
            ("truncated string", Array(#""abc"#.utf8), .invalidJSON),
            ("truncated literal", Array("tru".utf8), .invalidJSON),
            ("truncated array", Array("[1,".utf8), .invalidJSON),
            ("truncated escape", Array(#""\u12"#.utf8), .invalidJSON),
            ("trailing comma in object", Array(#"{"a":1,}"#.utf8), .invalidJSON),
            ("trailing comma in array", Array("[1,2,]".utf8), .invalidJSON),
            ("missing colon", Array(#"{"a" 1}"#.utf8), .invalidJSON),
            ("unquoted key", Array("{a:1}".utf8), .invalidJSON),
            ("single quotes", Array("'a'".utf8), .invalidJSON),
            ("bad escape", Array(#""\x41""#.utf8), .invalidJSON),
            ("bad hex in escape", Array(#""\u12G4""#.utf8), .invalidJSON),
            ("raw newline in string", Array("\"a\nb\"".utf8), .invalidJSON),
            ("raw tab in string", Array("\"a\tb\"".utf8), .invalidJSON),
            ("lone high surrogate", Array(#""\ud800""#.utf8), .invalidJSON),
            ("lone low surrogate", Array(#""\udc00""#.utf8), .invalidJSON),
            ("high surrogate then non-surrogate", Array(#""\ud800\u0041""#.utf8), .invalidJSON),
            ("high surrogate then text", Array(#""\ud800abcdef""#.utf8), .invalidJSON),
            ("leading zero", Array("01".utf8), .invalidJSON),
            ("leading plus", Array("+1".utf8), .invalidJSON),
            ("bare minus", Array("-".utf8), .invalidJSON),
            ("dot without digits", Array("1.".utf8), .invalidJSON),
            ("exponent without digits", Array("1e".utf8), .invalidJSON),
            ("number too large", Array("1e400".utf8), .invalidJSON),
            ("NaN", Array("NaN".utf8), .invalidJSON),
            ("trailing garbage", Array("{} x".utf8), .invalidJSON),
            ("two values", Array("1 2".utf8), .invalidJSON),
            ("duplicate key", Array(#"{"a":1,"a":2}"#.utf8), .invalidJSON),
            ("too deep (arrays)", Array(deep.utf8), .invalidJSON),
            ("too deep (objects)", Array(deepObject.utf8), .invalidJSON),
            ("invalid UTF-8: stray continuation", [0x22, 0x80, 0x22], .invalidUTF8),
            ("invalid UTF-8: 0xFF", [0x22, 0xFF, 0x22], .invalidUTF8),
            ("invalid UTF-8: truncated sequence", [0x22, 0xE2, 0x82, 0x22], .invalidUTF8),
            ("invalid UTF-8: at end", [0x22, 0x61, 0x22, 0xC3], .invalidUTF8),
            ("overlong 2-byte '/'", [0x22, 0xC0, 0xAF, 0x22], .invalidUTF8),
            ("overlong 2-byte NUL", [0x22, 0xC1, 0x80, 0x22], .invalidUTF8),
            ("overlong 3-byte", [0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8),
            ("overlong 4-byte", [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], .invalidUTF8),
            ("encoded surrogate U+D800", [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8),
            ("above U+10FFFF", [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8),
            ("invalid UTF-8 outside a string", [0x7B, 0xFE, 0x7D], .invalidUTF8),
        ]
        for (name, bytes, code) in cases {
            switch parse(bytes) {
            case .success(let v): XCTFail("\(name): accepted as \(v)")
            case .failure(let e): XCTAssertEqual(e.code, code, "\(name): \(e.message)")
            }
        }
    }

    /// Small objects check duplicate keys by a scan, large ones by a set (`KeySet`): both find a
    /// duplicate, on either side of the switch, and neither refuses distinct keys.
    func testDuplicateKeysFoundInSmallAndLargeObjects() {
        func object(_ keys: [String]) -> String { "{" + keys.map { "\"\($0)\":1" }.joined(separator: ",") + "}" }
        let distinct = (0..<40).map { "k\($0)" }
        for count in [1, KeySet.scanLimit, KeySet.scanLimit + 1, 40] {
            guard case .success(.object(let o)) = JSONParser.parse(object(Array(distinct.prefix(count)))) else {
                return XCTFail("\(count) distinct keys refused")
            }
            XCTAssertEqual(o.keys, Array(distinct.prefix(count)))
        }
        for (first, again) in [(0, 3), (2, KeySet.scanLimit), (5, KeySet.scanLimit + 1), (KeySet.scanLimit + 2, 39), (0, 39)] {
            var keys = Array(distinct.prefix(again))
            keys.append(distinct[first])
            guard case .failure(let e) = JSONParser.parse(object(keys)) else {
                return XCTFail("key \(first) repeated at \(again) accepted")
            }
            XCTAssertTrue(e.message.contains("duplicate key \"k\(first)\""), e.message)
        }
    }

    func testErrorMessageNamesTheOffset() {
        guard case .failure(let e) = JSONParser.parse(#"{"a":1,}"#) else { return XCTFail("accepted") }
        XCTAssertTrue(e.message.contains("byte 7"), e.message)
    }

    func testStringsOfLongRunsAroundEscapes() throws {
        let run = String(repeating: "plain text é 😀 ", count: 300)
        for (json, text) in [("\"\(run)\"", run), ("\"\(run)\\n\(run)\\u00e9\"", run + "\n" + run + "é"),
                             ("\"\\t\(run)\"", "\t" + run), ("[\"\(run)\",\"\"]", run)] {
            let value = try JSONParser.parse(json).get()
            let parsed = if case .array(let items) = value { items.first } else { value }
            XCTAssertEqual(parsed, .string(text))
        }
        // What a run cannot hold is found where it is: the offset is the raw control byte's, or the end.
        guard case .failure(let control) = JSONParser.parse("\"\(run)\u{1}\"") else { return XCTFail("accepted") }
        XCTAssertTrue(control.message.contains("byte \(1 + run.utf8.count): raw control character"), control.message)
        guard case .failure(let open) = JSONParser.parse("\"\(run)") else { return XCTFail("accepted") }
        XCTAssertTrue(open.message.contains("byte \(1 + run.utf8.count): unterminated string"), open.message)
    }

    func testValidatorAcceptsAllScalarWidths() {
        let text = "a\u{7F}\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}"
        Array(text.utf8).withUnsafeBytes { XCTAssertNil(UTF8Validator.firstInvalidOffset($0)) }
        ([0x61, 0x62, 0xC0, 0x80] as [UInt8]).withUnsafeBytes { XCTAssertEqual(UTF8Validator.firstInvalidOffset($0), 2) }
    }

    func testSerializerEscapesAndStaysOnOneLine() {
        let s = JSONValue.string("a\"b\\c\nd\re\tf\u{1}g\u{7F}h\u{2028}i/é😀")
        let encoded = s.encoded()
        XCTAssertEqual(encoded, #""a\"b\\c\nd\re\tf\u0001g\u007fh\u2028i/é😀""#)
        XCTAssertFalse(encoded.contains("\n"))
        XCTAssertEqual(try JSONParser.parse(encoded).get(), s)
    }

    /// Text is copied in runs between what is escaped: the runs come out whole, other characters whose
    /// UTF-8 starts like U+2028's stay as they are, and U+2029 is escaped too.
    func testSerializerCopiesWhatNeedsNoEscapeAsItIs() {
        let s = JSONValue.string("€ 5\u{2027}x\u{2029}\u{2028}\u{2028}end ✓\u{1F}\"\"日本")
        let encoded = s.encoded()
        XCTAssertEqual(encoded, #""€ 5\#u{2027}x\u2029\u2028\u2028end ✓\u001f\"\"日本""#)
        XCTAssertEqual(try JSONParser.parse(encoded).get(), s)
        XCTAssertEqual(JSONValue.string("").encoded(), #""""#)
        XCTAssertEqual(JSONValue.string("plain").encoded(), #""plain""#)
    }

    func testSerializerNumbers() {
        XCTAssertEqual(JSONValue.int(-5).encoded(), "-5")
        XCTAssertEqual(JSONValue.double(0.5).encoded(), "0.5")
        XCTAssertEqual(JSONValue.double(.nan).encoded(), "null")
        XCTAssertEqual(JSONValue.double(.infinity).encoded(), "null")
        for d in [0.1, 1e-7, 1e300, -2.5, 5.0] {
            XCTAssertEqual(try JSONParser.parse(JSONValue.double(d).encoded()).get(), .double(d))
        }
    }

    func testRoundTripOfANestedDocument() throws {
        let value = JSONValue.object(JSONObject([
            ("z", .array([.int(1), .double(2.5), .null, .bool(false)])),
            ("a", .object(JSONObject([("k", .string("v\n"))]))),
        ]))
        XCTAssertEqual(value.encoded(), #"{"z":[1,2.5,null,false],"a":{"k":"v\n"}}"#)
        XCTAssertEqual(try JSONParser.parse(value.encoded()).get(), value)
    }

    func testObjectSubscriptKeepsPosition() {
        var o = JSONObject([("a", .int(1)), ("b", .int(2))])
        o["a"] = .int(3)
        o["c"] = .null
        o["b"] = nil
        XCTAssertEqual(o.keys, ["a", "c"])
        XCTAssertEqual(o["a"], .int(3))
    }
}
