import ToastDBus

extension Daemon {
    /// mako's and dunst's control interfaces on the bus toastd serves: makoctl and dunstctl keep working.
    func startCompatControl(on door: BusFrontDoor) {
        let control = CompatControlDoor(service: service) { [unowned self] in self.reloadConfig() }
        compatControl = control
        door.bus?.controlDelegate = control
    }
}
