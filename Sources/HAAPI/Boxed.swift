/// A value held by reference: an optional or shared property of a type that has many instances takes a pointer's room
/// instead of the value's (a flow's last submitted action, its authorize parameters).
final class Boxed<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
