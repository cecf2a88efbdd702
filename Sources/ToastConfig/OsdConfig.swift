/// The on-screen display's own keys: how far `toast osd … up|down` moves a level, how loud a step or
/// `set` may make the sound, and whether changes made by other programs show the bar.
package struct OsdConfig: Equatable, Sendable {
    /// `volume-step`: points `up` and `down` move the volume and the microphone.
    package var volumeStep = 5
    /// `volume-max`: the highest volume a step or `set` reaches (above 100 amplifies); `--max` wins.
    package var volumeMax = 100
    /// `brightness-step`: points `up` and `down` move a backlight.
    package var brightnessStep = 5
    /// `hud-follow-volume`: a change of the default sink's or source's volume or mute by any program
    /// (a mixer, a headset button) shows the bar too.
    package var followVolume = false
    /// `mpris`: a media player's (MPRIS) track change shows a toast with its title, artist and cover.
    package var mediaToasts = false

    package init() {}
}
