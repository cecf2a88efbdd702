import XCTest
import ToastRender
import ToastVocabulary
@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene

final class HudIconsTests: XCTestCase {
    func testKindsNameTheirThemeIconsByLevel() {
        XCTAssertEqual(HudIcons.names(for: "volume", value: 80, muted: false), ["audio-volume-high-symbolic", "audio-volume-high"])
        XCTAssertEqual(HudIcons.names(for: "volume", value: 50, muted: false).first, "audio-volume-medium-symbolic")
        XCTAssertEqual(HudIcons.names(for: "volume", value: 33, muted: false).first, "audio-volume-low-symbolic")
        XCTAssertEqual(HudIcons.names(for: "volume", value: 0, muted: false).first, "audio-volume-muted-symbolic")
        XCTAssertEqual(HudIcons.names(for: "volume", value: 90, muted: true).first, "audio-volume-muted-symbolic")
        XCTAssertEqual(HudIcons.names(for: "brightness", value: 10, muted: false), ["display-brightness-symbolic", "display-brightness"])
        XCTAssertEqual(HudIcons.names(for: "mic", value: 100, muted: false), ["microphone-sensitivity-high-symbolic", "microphone-sensitivity-high"])
        XCTAssertEqual(HudIcons.names(for: "mic", value: 5, muted: true).first, "microphone-sensitivity-muted-symbolic")
        XCTAssertEqual(HudIcons.names(for: "mic", value: 50, muted: false),
                       ["microphone-sensitivity-medium-symbolic", "microphone-sensitivity-medium",
                        "microphone-sensitivity-high-symbolic", "microphone-sensitivity-high"])
        XCTAssertEqual(HudIcons.names(for: "weather-clear", value: 50, muted: false), ["weather-clear"], "other names as they are")
    }

    /// A stream of values makes each icon once: a value inside one level is a cache hit, a new level
    /// (or a missing icon, remembered as missing) loads once.
    func testIconsAreMadeOncePerLevelAndMissesAreRemembered() {
        var icons = HudIcons()
        var loads: [String] = []
        let red = RGBAImage(width: 1, height: 1, pixels: [255, 0, 0, 255])
        func decorate(_ value: Int, _ name: String = "volume") -> HudBarView {
            icons.decorate(HudBarView(label: "Volume", iconName: name, value: value), scale: 2, style: ToastStyle()) { name, side, tint in
                loads.append("\(name)@\(side)")
                XCTAssertEqual(tint, ToastStyle().summaryColor)
                return name == "audio-volume-high-symbolic" ? red : nil
            }
        }
        for value in 70...100 { XCTAssertEqual(decorate(value).icon, red) }
        XCTAssertEqual(loads, ["audio-volume-high-symbolic@36"])
        for value in 40...60 { XCTAssertNil(decorate(value).icon) }
        XCTAssertEqual(loads.count, 3, "medium tried once, symbolic then plain: \(loads)")
        XCTAssertNil(decorate(50, "").icon)
        XCTAssertEqual(loads.count, 3, "no name, nothing to load")
        icons.forget()
        _ = decorate(80)
        XCTAssertEqual(loads.count, 4, "a reload makes them anew")
    }

    /// Values going back and forth over levels, mute, scale and tint each get their own icon, also once
    /// they are remembered among the last few answers (an answer kept for the wrong level would show
    /// the "high" speaker at 30 %).
    func testAStreamOverLevelsGetsEachLevelsIcon() {
        var icons = HudIcons()
        var loads = 0
        let low = RGBAImage(width: 1, height: 1, pixels: [1, 0, 0, 255])
        let high = RGBAImage(width: 1, height: 1, pixels: [2, 0, 0, 255])
        let muted = RGBAImage(width: 1, height: 1, pixels: [3, 0, 0, 255])
        let mic = RGBAImage(width: 1, height: 1, pixels: [4, 0, 0, 255])
        func decorate(_ value: Int, _ name: String = "volume", muted isMuted: Bool = false, scale: Int = 1) -> RGBAImage? {
            icons.decorate(HudBarView(label: "Volume", iconName: name, value: value, muted: isMuted), scale: scale,
                           style: ToastStyle()) { name, side, tint in
                loads += 1
                switch name {
                case "audio-volume-low-symbolic": return low
                case "audio-volume-high-symbolic": return side == HudIcons.side ? high : mic
                case "audio-volume-muted-symbolic": return tint == ToastStyle().captionColor ? muted : nil
                case "microphone-sensitivity-low-symbolic": return mic
                default: return nil
                }
            }.icon
        }
        for _ in 0..<3 {
            XCTAssertEqual(decorate(30), low)
            XCTAssertEqual(decorate(70), high)
            XCTAssertEqual(decorate(70, muted: true), muted)
            XCTAssertEqual(decorate(70, scale: 2), mic, "another scale is another icon")
            XCTAssertEqual(decorate(30, "mic"), mic, "another name is another icon")
        }
        XCTAssertEqual(loads, 5, "each made once")
        XCTAssertNil(decorate(0), "muted by value, in the text colour: none")
        XCTAssertEqual(decorate(30), low, "still right after the oldest answer went")
    }
}
