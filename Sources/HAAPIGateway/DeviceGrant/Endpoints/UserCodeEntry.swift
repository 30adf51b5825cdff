/// What entering a user code on the verification page found.
package enum UserCodeEntry: Sendable, Equatable {
    /// A waiting device authorization: the page asks the person to compare the code and confirm the device's name.
    case found(DeviceAuthorization)
    /// The code is right but can no longer be used: someone is already signing in with it, it was decided, or it was
    /// entered more often than `devices.maximumEntriesPerCode` allows.
    case alreadyUsed
    /// No waiting device authorization has this code (a typo, a guess, or an expired code); counts as a wrong code.
    case unknown
}
