extension MessageCatalogue {
    /// A wait in words, in `language`: every unit that is not zero, largest first ("4 minutes and 10 seconds",
    /// "1 hour and 5 seconds", "4 minuter och 10 sekunder"), from the catalogue's `wait…` texts.
    /// - Parameter seconds: The wait in whole seconds (at least 1, as a `Retry-After` header says it).
    func wait(seconds: Int, language: String) -> String {
        let seconds = max(1, seconds)
        let units: [(count: Int, one: MessageKey, many: MessageKey)] = [
            (seconds / 3600, .waitHour, .waitHours), (seconds % 3600 / 60, .waitMinute, .waitMinutes), (seconds % 60, .waitSecond, .waitSeconds),
        ]
        let parts = units.filter { $0.count > 0 }.map { unit in
            unit.count == 1 ? text(unit.one, language: language) : text(unit.many, language: language, arguments: ["count": String(unit.count)])
        }
        guard let last = parts.last, parts.count > 1 else { return parts.first ?? "" }
        return text(.waitAnd, language: language, arguments: ["list": parts.dropLast().joined(separator: ", "), "last": last])
    }

    /// The sentence a page refused with `Retry-After` ends with: when the person can try again, in words
    /// ("You can try again in 4 minutes and 10 seconds.").
    /// - Parameter seconds: The page's `Retry-After`, in seconds.
    func retryIn(seconds: Int, language: String) -> String {
        text(.retryIn, language: language, arguments: ["wait": wait(seconds: seconds, language: language)])
    }
}
