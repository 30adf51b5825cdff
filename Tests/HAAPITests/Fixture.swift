import Foundation

/// Loads a file copied from `shared/haapi/samples/` into the test bundle.
enum Fixture {
    static var samplesDirectory: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures/samples")
    }
}
