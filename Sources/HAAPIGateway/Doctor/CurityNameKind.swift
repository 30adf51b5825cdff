/// What a ``CurityName`` names: the docs test and `doctor` treat each kind alike, whatever its source.
enum CurityNameKind: String, Sendable, CaseIterable {
    /// A configuration path, or an element of one, as Curity's configuration reference or its configuration files write
    /// it (`issuer-override`, `capabilities/haapi`).
    case settingPath
    /// A value a setting takes (`client-requested`), or an id Curity's examples give (`token-service`).
    case settingValue
    /// A place in the Admin UI, by the label Curity's guides give it.
    case adminUIPlace
    /// An error code a Curity page names as one Curity answers with.
    case error
    /// An HTTP header a Curity page names.
    case header
    /// A HAAPI problem type.
    case problemType
    /// A scope Curity defines.
    case scope
    /// A URL path every Curity example uses (not a default: no Curity page calls it one).
    case examplePath
}
