/// A sign-in that did not go as the demo upstream's flow goes, or a store round trip that did not go as a step's goes.
struct DriverError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
