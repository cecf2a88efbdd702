import XCTest
@testable import ToastRender

final class MarkupSanitizerTests: XCTestCase {
    private let link = ToastStyle().linkColor.hexRGB

    private func check(_ input: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let out = MarkupSanitizer.sanitize(input)
        XCTAssertEqual(out, expected, file: file, line: line)
        XCTAssertTrue(MarkupSanitizer.isValidPangoMarkup(out), "not valid Pango markup: \(out)", file: file, line: line)
    }

    func testPlainTextPassesThrough() {
        check("Hello world", "Hello world")
        check("", "")
        check("Ünïcödé ✓ 日本語", "Ünïcödé ✓ 日本語")
    }

    func testAllowedTagsKept() {
        check("<b>bold</b> <i>it</i> <u>under</u>", "<b>bold</b> <i>it</i> <u>under</u>")
        check("<B>Bold</B>", "<b>Bold</b>")
        check("<b class=\"x\">bold</b>", "<b>bold</b>")
    }

    func testNestedTags() {
        check("<b>a <i>b <u>c</u></i></b>", "<b>a <i>b <u>c</u></i></b>")
    }

    func testUnbalancedTagsClosedOrDropped() {
        check("<b>open", "<b>open</b>")
        check("close</b> only", "close only")
        check("<b><i>x</b>y</i>", "<b><i>x</i></b>y")
        check("<b>a<b>b</b>", "<b>a<b>b</b></b>")
    }

    func testUnknownTagsEscaped() {
        check("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;")
        check("<span foreground='red'>x</span>", "&lt;span foreground=&apos;red&apos;&gt;x&lt;/span&gt;")
        check("<br/>", "&lt;br/&gt;")
        check("<bold>", "&lt;bold&gt;")
    }

    func testAmpersandAndLessThanInPlainText() {
        check("Tom & Jerry", "Tom &amp; Jerry")
        check("a < b > c", "a &lt; b &gt; c")
        check("1<2", "1&lt;2")
        check("x <", "x &lt;")
        check("<<b>>", "&lt;<b>&gt;</b>")
        check("say \"hi\" it's", "say &quot;hi&quot; it&apos;s")
    }

    func testEntities() {
        check("&amp; &lt; &gt; &quot; &apos;", "&amp; &lt; &gt; &quot; &apos;")
        check("&#65; &#x263A;", "&#65; &#x263A;")
        check("&nbsp; &bogus; &#xZZ; &#0; &", "&amp;nbsp; &amp;bogus; &amp;#xZZ; &amp;#0; &amp;")
        check("&amp", "&amp;amp")
    }

    func testImgReplacedByAlt() {
        check("see <img src=\"file:///x.png\" alt=\"a cat\"/> here", "see a cat here")
        check("<img src='x.png' alt='1 < 2 &amp; 3'>", "1 &lt; 2 &amp; 3")
        check("<img src=\"x.png\">", "")
        check("<img alt=\"<b>\">", "&lt;b&gt;")
    }

    func testLinkBecomesUnderlinedColouredSpan() {
        check("<a href=\"https://example.com/?a=1&b=2\">site</a>",
              "<span foreground=\"\(link)\" underline=\"single\">site</span>")
        check("<a href='x'>open", "<span foreground=\"\(link)\" underline=\"single\">open</span>")
    }

    func testControlCharactersRemoved() {
        check("a\u{01}b\u{1b}[0mc\td\ne", "ab[0mc\td\ne")
    }

    func testOutputAlwaysValid() {
        let nasty = ["<", ">", "&", "</", "<a", "<a href=\"", "<b></i></u>", "<i><b></i>", "<<<>>>",
                     "&#1114112;", "&#xD800;", "<img alt=\"x", "<u/>", "</>", "<>", "\u{0}"]
        for s in nasty {
            XCTAssertTrue(MarkupSanitizer.isValidPangoMarkup(MarkupSanitizer.sanitize(s)), s)
        }
    }

    func testEscape() {
        XCTAssertEqual(MarkupSanitizer.escape("<b>&</b>"), "&lt;b&gt;&amp;&lt;/b&gt;")
        XCTAssertFalse(MarkupSanitizer.isValidPangoMarkup("<b>x"))
    }
}
