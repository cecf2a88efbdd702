import XCTest
@testable import ToastDevices

/// The arithmetic of `toast osd`: sound server channel volumes (as pactl does it) and backlight steps.
final class OsdLevelsTests: XCTestCase {
    let norm = ChannelVolumes.norm

    func testPercentIsRoundedAsPactlPrintsIt() {
        XCTAssertEqual(ChannelVolumes.percent(norm), 100)
        XCTAssertEqual(ChannelVolumes.percent(36045), 55)
        XCTAssertEqual(ChannelVolumes.percent(0), 0)
        XCTAssertEqual(ChannelVolumes.percent(of: [norm / 2, norm]), 100, "the loudest channel")
        XCTAssertEqual(ChannelVolumes.volume(percent: 40), 26214)
    }

    func testAStepMovesEveryChannelAlikeSoTheBalanceStays() {
        let half = ChannelVolumes.volume(percent: 50), quarter = ChannelVolumes.volume(percent: 25)
        let raised = ChannelVolumes.apply(.by(5), to: [half, quarter], ceiling: 100)
        XCTAssertEqual(raised.map(ChannelVolumes.percent), [55, 30])
        XCTAssertEqual(raised[0] - half, raised[1] - quarter)
        XCTAssertEqual(ChannelVolumes.apply(.by(-30), to: [half, quarter], ceiling: 100).map(ChannelVolumes.percent), [20, 0])
    }

    func testTheCeilingStopsAStepAndASetButNeverLowersALouderChannel() {
        let loud = ChannelVolumes.volume(percent: 120), almost = ChannelVolumes.volume(percent: 98)
        XCTAssertEqual(ChannelVolumes.apply(.by(5), to: [almost], ceiling: 100), [norm])
        XCTAssertEqual(ChannelVolumes.apply(.by(5), to: [loud], ceiling: 100), [loud], "raising never lowers")
        XCTAssertEqual(ChannelVolumes.apply(.set(150), to: [almost, almost], ceiling: 100), [norm, norm])
        XCTAssertEqual(ChannelVolumes.apply(.set(150), to: [almost], ceiling: 150).map(ChannelVolumes.percent), [150])
    }

    func testMuteChanges() {
        XCTAssertTrue(ChannelVolumes.mute(after: .toggleMute, from: false))
        XCTAssertFalse(ChannelVolumes.mute(after: .toggleMute, from: true))
        XCTAssertTrue(ChannelVolumes.mute(after: .by(5), from: true), "a step keeps the mute")
        XCTAssertFalse(ChannelVolumes.mute(after: .unmute, from: true))
    }

    func testBrightnessStepsInPercentOfTheMaximum() {
        XCTAssertEqual(BrightnessLevels.value(after: .by(-10), from: 500, max: 1000), 400)
        XCTAssertEqual(BrightnessLevels.value(after: .by(10), from: 955, max: 1000), 1000)
        XCTAssertEqual(BrightnessLevels.value(after: .by(-10), from: 30, max: 1000), 0)
        XCTAssertEqual(BrightnessLevels.value(after: .set(50), from: 0, max: 255), 128)
        // Coarse devices (a keyboard backlight of three levels) move a level per step.
        XCTAssertEqual(BrightnessLevels.value(after: .by(5), from: 0, max: 2), 1)
        XCTAssertEqual(BrightnessLevels.value(after: .by(-5), from: 2, max: 2), 1)
        XCTAssertEqual(BrightnessLevels.percent(1, of: 2), 50)
    }

    func testTheDefaultDevicesAreTheServersOwnNames() {
        XCTAssertEqual(SoundDevice(.output).serverName, "@DEFAULT_SINK@")
        XCTAssertEqual(SoundDevice(.input).serverName, "@DEFAULT_SOURCE@")
        XCTAssertEqual(SoundDevice(.output, name: "hdmi").serverName, "hdmi")
    }

    func testAChannelVolumeSurvivesTheCStruct() {
        let channels: [UInt32] = [1, 2, 3]
        XCTAssertEqual(ChannelVolumes.channels(ChannelVolumes.cvolume(channels)), channels)
    }
}
