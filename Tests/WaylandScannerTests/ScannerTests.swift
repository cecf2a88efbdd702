import WaylandScannerKit
import XCTest

/// A protocol exercising every argument type, enums, bitfields, since and nullability.
let sampleXML = """
<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment with <tags> & such -->
<protocol name="sample">
  <copyright><![CDATA[ (c) <nobody> ]]></copyright>
  <interface name="zsample_thing_v1" version="3">
    <description summary="a thing &amp; its &lt;parts&gt;">Long text.</description>
    <request name="everything">
      <description summary="every argument type"/>
      <arg name="an_int" type="int"/>
      <arg name="a_uint" type="uint"/>
      <arg name="a_fixed" type="fixed"/>
      <arg name="a_string" type="string"/>
      <arg name="maybe_string" type="string" allow-null="true"/>
      <arg name="surface" type="object" interface="wl_surface"/>
      <arg name="maybe_surface" type="object" interface="wl_surface" allow-null="true"/>
      <arg name="id" type="new_id" interface="zsample_child_v1"/>
      <arg name="bytes" type="array"/>
      <arg name="file" type="fd"/>
    </request>
    <request name="make_any">
      <arg name="name" type="uint"/>
      <arg name="id" type="new_id"/>
    </request>
    <request name="set_mode" since="2">
      <arg name="mode" type="uint" enum="mode"/>
      <arg name="edges" type="uint" enum="edges"/>
      <arg name="turn" type="int" enum="wl_output.transform"/>
    </request>
    <request name="destroy" type="destructor"/>
    <request name="repeat">
      <arg name="default" type="uint"/>
      <arg name="in" type="string"/>
    </request>
    <event name="changed" since="3">
      <arg name="edges" type="uint" enum="edges"/>
      <arg name="mode" type="uint" enum="mode"/>
      <arg name="child" type="new_id" interface="zsample_child_v1"/>
      <arg name="where" type="object" interface="wl_surface" allow-null="true"/>
      <arg name="scale" type="fixed"/>
      <arg name="label" type="string" allow-null="true"/>
      <arg name="data" type="array"/>
      <arg name="handle" type="fd"/>
    </event>
    <enum name="mode">
      <entry name="off" value="0" summary="nothing"/>
      <entry name="default" value="1"/>
      <entry name="90" value="2"/>
      <entry name="also_default" value="1"/>
    </enum>
    <enum name="edges" bitfield="true">
      <entry name="none" value="0"/>
      <entry name="top" value="1"/>
      <entry name="bottom_left" value="0x6"/>
    </enum>
  </interface>
  <interface name="zsample_child_v1" version="1">
    <event name="gone" type="destructor"/>
  </interface>
</protocol>
"""

let miniCoreXML = """
<protocol name="mini_core">
  <interface name="wl_surface" version="6">
    <request name="commit"/>
  </interface>
  <interface name="wl_output" version="4">
    <enum name="transform">
      <entry name="normal" value="0"/>
      <entry name="90" value="1"/>
    </enum>
  </interface>
</protocol>
"""

final class ScannerTests: XCTestCase {
    func generate(_ files: [(String, String)]) throws -> [GeneratedFile] {
        let protocols = try files.map { try ProtocolDescription(xml: Array($0.1.utf8), file: $0.0) }
        return try generateSwift(for: protocols)
    }

    func sampleSource() throws -> String {
        let files = try generate([("core.xml", miniCoreXML), ("sample.xml", sampleXML)])
        return try XCTUnwrap(files.first { $0.name == "Protocol_sample.swift" }).contents
    }

    // MARK: XML reader

    func testXMLReaderHandlesEntitiesCommentsCDATAAndLines() throws {
        let root = try parseXML(sampleXML)
        XCTAssertEqual(root.name, "protocol")
        let interface = try XCTUnwrap(root.child(named: "interface"))
        XCTAssertEqual(interface.line, 5)
        XCTAssertEqual(interface.child(named: "description")?.attributes["summary"], "a thing & its <parts>")
        XCTAssertEqual(interface.child(named: "description")?.text, "Long text.")
        XCTAssertEqual(root.child(named: "copyright")?.text.contains("(c) <nobody>"), true)
        XCTAssertEqual(try parseXML("<a b='&#65;&#x42;'/>").attributes["b"], "AB")
    }

    func testXMLReaderReportsLineOfMismatchedTag() {
        XCTAssertThrowsError(try parseXML("<a>\n<b>\n</c>\n</a>")) { error in
            XCTAssertEqual((error as? XMLSyntaxError)?.line, 3)
        }
        XCTAssertThrowsError(try parseXML("<a>\n<b x=\"1>\n")) { error in
            XCTAssertNotNil(error as? XMLSyntaxError)
        }
    }

    // MARK: Model

    func testModelReadsMessagesArgumentsAndEnums() throws {
        let p = try ProtocolDescription(xml: Array(sampleXML.utf8), file: "sample.xml")
        XCTAssertEqual(p.interfaces.map(\.name), ["zsample_thing_v1", "zsample_child_v1"])
        let thing = p.interfaces[0]
        XCTAssertEqual(thing.version, 3)
        XCTAssertEqual(thing.requests.map(\.name), ["everything", "make_any", "set_mode", "destroy", "repeat"])
        XCTAssertEqual(thing.requests[0].arguments.map(\.type),
                       [.int, .uint, .fixed, .string, .string, .object, .object, .newID, .array, .fd])
        XCTAssertEqual(thing.requests[0].arguments.map(\.allowNull),
                       [false, false, false, false, true, false, true, false, false, false])
        XCTAssertEqual(thing.requests[2].since, 2)
        XCTAssertTrue(thing.requests[3].isDestructor)
        XCTAssertEqual(thing.enums[1].entries.map(\.value), [0, 1, 6])
        XCTAssertTrue(thing.enums[1].isBitfield)
        XCTAssertTrue(p.interfaces[1].events[0].isDestructor)
    }

    // MARK: Generated Swift

    func testEveryArgumentTypeInARequest() throws {
        let source = try sampleSource()
        XCTAssertTrue(source.contains("""
            public func everything(anInt: Int32, aUint: UInt32, aFixed: Double, aString: String, \
            maybeString: String?, surface: WlSurface, maybeSurface: WlSurface?, bytes: [UInt8], file: Int32) \
            -> ZsampleChildV1 {
            """), source)
        XCTAssertTrue(source.contains("M everything iufs?so?onah - - - - - 0 0 3 - -\n"), source)
        XCTAssertTrue(source.contains("_a[2] = wl_argument(f: doubleToFixed(aFixed))"))
        XCTAssertTrue(source.contains("withOptionalCString(maybeString) { _s4 in"))
        XCTAssertTrue(source.contains("aString.withCString { _s3 in"))
        XCTAssertTrue(source.contains("_a[6] = wl_argument(o: maybeSurface?.argumentProxy)"))
        XCTAssertTrue(source.contains("_a[5] = wl_argument(o: surface.argumentProxy)"))
        XCTAssertTrue(source.contains("withWLArray(bytes) { _v8 in"))
        XCTAssertTrue(source.contains("_a[9] = wl_argument(h: file)"))
        XCTAssertTrue(source.contains("creating: ZsampleChildV1.self, version: self.version)"))
    }

    func testUntypedNewIDTakesTypeAndVersion() throws {
        let source = try sampleSource()
        XCTAssertTrue(source.contains("public func makeAny<T: Proxy>(name: UInt32, _ type: T.Type, version: UInt32) -> T {"))
        XCTAssertTrue(source.contains("M make_any usun - - - -\n"))
        XCTAssertTrue(source.contains("creating: T.self, version: version)"))
    }

    func testEnumsAndBitfields() throws {
        let source = try sampleSource()
        XCTAssertTrue(source.contains("public enum Mode: UInt32, Sendable {"))
        XCTAssertTrue(source.contains("case off = 0"))
        XCTAssertTrue(source.contains("case `default` = 1"))
        XCTAssertTrue(source.contains("case _90 = 2"))
        XCTAssertTrue(source.contains("public static let alsoDefault = Mode.`default`"), "duplicate values become aliases")
        XCTAssertTrue(source.contains("public struct Edges: OptionSet, Hashable, Sendable {"))
        XCTAssertTrue(source.contains("public static let top = Edges(rawValue: 1)"))
        XCTAssertTrue(source.contains("public static let bottomLeft = Edges(rawValue: 6)"))
        XCTAssertFalse(source.contains("static let none"), "a zero bitfield entry is []")
        XCTAssertTrue(source.contains("public func setMode(mode: ZsampleThingV1.Mode, edges: ZsampleThingV1.Edges, turn: WlOutput.Transform)"))
        XCTAssertTrue(source.contains("wl_argument(i: Int32(bitPattern: turn.rawValue))"))
        XCTAssertTrue(source.contains("wl_argument(u: edges.rawValue)"))
    }

    func testSinceIsCheckedAndEncoded() throws {
        let source = try sampleSource()
        XCTAssertTrue(source.contains("requestTarget(since: 2, \"set_mode\")"))
        XCTAssertTrue(source.contains("M set_mode 2uui - - -\n"))
        XCTAssertTrue(source.contains("M changed 3uun?of?sah - - 3 0 - - - -\n"), source)
        XCTAssertTrue(source.contains("I zsample_thing_v1 3 5 1\n"), source)
        XCTAssertTrue(source.contains("M destroy -\n"), source)
        XCTAssertThrowsError(try generate([("bad.xml", """
            <protocol name="p"><interface name="a" version="1">
            <request name="r" since="2"/></interface></protocol>
            """)])) { error in
            XCTAssertEqual((error as? ProtocolError)?.line, 2)
            XCTAssertTrue("\(error)".contains("since=2"))
        }
    }

    func testKeywordNamesAreEscapedWhereSwiftNeedsIt() throws {
        let source = try sampleSource()
        XCTAssertTrue(source.contains("public func `repeat`(`default`: UInt32, `in`: String) {"), source)
        XCTAssertTrue(source.contains("_a[0] = wl_argument(u: `default`)"))
        XCTAssertTrue(source.contains("`in`.withCString { _s1 in"))
    }

    func testEventsDecodeEveryType() throws {
        let source = try sampleSource()
        XCTAssertTrue(source.contains("""
            case changed(edges: ZsampleThingV1.Edges, mode: UInt32, child: ZsampleChildV1, \
            `where`: WlSurface?, scale: Double, label: String?, data: [UInt8], handle: Int32)
            """), source)
        XCTAssertTrue(source.contains("edges: ZsampleThingV1.Edges(rawValue: _a[0].u)"))
        XCTAssertTrue(source.contains("child: adopt(_a[2].o, as: ZsampleChildV1.self)"))
        XCTAssertTrue(source.contains(", where: object(_a[3].o, as: WlSurface.self)"), "no back-quotes at a call site")
        XCTAssertTrue(source.contains("scale: fixedToDouble(_a[4].f)"))
        XCTAssertTrue(source.contains("label: string(of: _a[5].s)"))
        XCTAssertTrue(source.contains("data: bytes(of: _a[6].a)"))
        XCTAssertTrue(source.contains("handle: _a[7].h"))
        XCTAssertTrue(source.contains("if opcode == 0 { destroyedByServer() }"), "destructor event")
        XCTAssertTrue(source.contains("marshal(_raw, opcode: 3, nil, destructor: true)"), "destructor request")
    }

    func testNamesAndDocComments() throws {
        XCTAssertEqual(upperCamel("zwlr_layer_shell_v1"), "ZwlrLayerShellV1")
        XCTAssertEqual(upperCamel("wp_viewporter"), "WpViewporter")
        XCTAssertEqual(lowerCamel("damage_buffer"), "damageBuffer")
        XCTAssertEqual(lowerCamel("90"), "_90")
        XCTAssertEqual(lowerCamel("flipped_90"), "flipped90")
        XCTAssertEqual(swiftFileName(forProtocolFile: "/usr/share/x/xdg-shell.xml"), "Protocol_xdg_shell.swift")
        let source = try sampleSource()
        XCTAssertTrue(source.contains("/// A thing & its <parts>.\npublic final class ZsampleThingV1: Proxy {"))
        XCTAssertTrue(source.contains("public static let interfaceName = \"zsample_thing_v1\""))
        XCTAssertTrue(source.contains("public static let maxVersion: UInt32 = 3"))
    }

    func testIndexListsInterfacesInTableOrder() throws {
        let files = try generate([("core.xml", miniCoreXML), ("sample.xml", sampleXML)])
        XCTAssertEqual(files.map(\.name), ["Protocol_core.swift", "Protocol_sample.swift", "WaylandInterfaceIndex.swift"])
        let index = files[2].contents
        XCTAssertTrue(index.contains("miniCoreDescription,\n            sampleDescription,"), index)
        XCTAssertTrue(files[1].contents.contains("override class var interfaceIndex: Int { 2 }"))
    }

    // MARK: Errors

    func testMalformedFileNamesFileAndLine() {
        let xml = "<protocol name=\"p\">\n  <interface name=\"a\" version=\"1\">\n  </interfase>\n</protocol>\n"
        XCTAssertThrowsError(try ProtocolDescription(xml: Array(xml.utf8), file: "Protocols/bad.xml")) { error in
            let e = error as? ProtocolError
            XCTAssertEqual(e?.file, "Protocols/bad.xml")
            XCTAssertEqual(e?.line, 3)
            XCTAssertTrue(e?.description.hasPrefix("Protocols/bad.xml:3: error: malformed XML") ?? false, "\(error)")
        }
        XCTAssertThrowsError(try ProtocolDescription(xml: Array("<protocol name=\"p\">\n<interface name=\"a\"/>\n</protocol>".utf8), file: "x.xml")) { error in
            XCTAssertEqual("\(error)", "x.xml:2: error: <interface> needs a 'version' attribute")
        }
        XCTAssertThrowsError(try ProtocolDescription(xml: Array("<protocol name=\"p\"><interface name=\"a\" version=\"1\"><request name=\"r\"><arg name=\"x\" type=\"float\"/></request></interface></protocol>".utf8), file: "x.xml")) { error in
            XCTAssertTrue("\(error)".contains("unknown argument type 'float'"))
        }
    }

    func testDuplicateInterfaceAcrossFilesIsAnError() {
        let again = "<protocol name=\"other\">\n\n<interface name=\"wl_surface\" version=\"1\"/>\n</protocol>"
        XCTAssertThrowsError(try generate([("core.xml", miniCoreXML), ("Protocols/again.xml", again)])) { error in
            let e = error as? ProtocolError
            XCTAssertEqual(e?.file, "Protocols/again.xml")
            XCTAssertEqual(e?.line, 3)
            XCTAssertTrue("\(error)".contains("interface 'wl_surface' is already defined in core.xml:2"), "\(error)")
        }
    }

    func testDuplicateInterfaceInOneFileIsAnError() {
        let xml = "<protocol name=\"p\">\n<interface name=\"a\" version=\"1\"/>\n<interface name=\"a\" version=\"1\"/>\n</protocol>"
        XCTAssertThrowsError(try ProtocolDescription(xml: Array(xml.utf8), file: "dup.xml")) { error in
            XCTAssertEqual("\(error)", "dup.xml:3: error: interface 'a' is defined twice (first on line 2)")
        }
    }

    func testUnknownInterfaceReferenceIsAnError() {
        XCTAssertThrowsError(try generate([("sample.xml", sampleXML)])) { error in
            XCTAssertTrue("\(error)".contains("unknown interface 'wl_surface'"), "\(error)")
        }
    }
}
