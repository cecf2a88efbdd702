/// One value for each urgency: the border colours, the default timeouts. Read and written by
/// `Urgency`, so that a setting that differs per urgency is stored once, not as three fields.
public struct PerUrgency<Value> {
    public var low: Value
    public var normal: Value
    public var critical: Value

    public init(low: Value, normal: Value, critical: Value) {
        self.low = low; self.normal = normal; self.critical = critical
    }

    /// The same value for every urgency.
    public init(all value: Value) {
        self.init(low: value, normal: value, critical: value)
    }

    public subscript(urgency: Urgency) -> Value {
        get {
            switch urgency {
            case .low: low
            case .normal: normal
            case .critical: critical
            }
        }
        set {
            switch urgency {
            case .low: low = newValue
            case .normal: normal = newValue
            case .critical: critical = newValue
            }
        }
    }
}

extension PerUrgency: Equatable where Value: Equatable {}
extension PerUrgency: Hashable where Value: Hashable {}
extension PerUrgency: Sendable where Value: Sendable {}
