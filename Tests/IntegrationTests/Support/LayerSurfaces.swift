/// A zwlr_layer_surface_v1 that a WAYLAND_DEBUG=1 log shows made, with the wl_surface under it.
struct LoggedLayerSurface {
    var layer: Int
    var surface: Int
    /// The get_layer_surface line.
    var line: Substring
    /// Whether a buffer was attached to its wl_surface (it showed something).
    var shown = false
}

/// Every layer surface the log shows made, in order. Object ids are reused once destroyed: an attach
/// counts for the surface last made with that id.
func loggedLayerSurfaces(in log: String) -> [LoggedLayerSurface] {
    var made: [LoggedLayerSurface] = []
    var latest: [Int: Int] = [:]  // wl_surface id -> index in `made`
    for line in log.split(separator: "\n") {
        if let m = line.firstMatch(of: /get_layer_surface\(new id zwlr_layer_surface_v1@(\d+), wl_surface@(\d+),/),
           let layer = Int(m.1), let surface = Int(m.2) {
            latest[surface] = made.count
            made.append(LoggedLayerSurface(layer: layer, surface: surface, line: line))
        } else if let m = line.firstMatch(of: /-> wl_surface@(\d+)\.attach\(wl_buffer@/), let surface = Int(m.1),
                  let index = latest[surface] {
            made[index].shown = true
        }
    }
    return made
}

/// The layer surfaces that showed something, in the order made: toastd also keeps one made ahead
/// for the next toast (`Screen`'s spare), which gets no buffer until a toast takes it.
func shownLayerSurfaces(in log: String) -> [LoggedLayerSurface] {
    loggedLayerSurfaces(in: log).filter(\.shown)
}
