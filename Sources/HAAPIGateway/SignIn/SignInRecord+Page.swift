/// What a page shows of a sign-in's record, and the texts it shows once.
extension SignInRecord {
    /// The page state of the record (``SessionSnapshot``), its one-shot texts included.
    /// - Parameter deviceName: The name of the device the sign-in is for, shown on its final page.
    func page(deviceName: String?) -> SessionSnapshot {
        SessionSnapshot(
            phase: phase,
            step: step,
            version: version,
            csrfToken: csrfToken,
            notices: notices,
            fieldErrors: fieldErrors,
            values: values,
            deliveryDelayed: deliveryDelayed,
            problemLinks: problemLinks,
            deviceName: deviceName
        )
    }

    /// Whether the next page has texts it shows once (notices, field errors, typed values).
    var hasOneShotTexts: Bool {
        !notices.isEmpty || !fieldErrors.isEmpty || !values.isEmpty
    }

    /// Forgets the texts a page has shown once.
    mutating func consumeOneShotTexts() {
        notices = []
        fieldErrors = [:]
        values = [:]
    }
}
