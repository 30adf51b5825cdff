extension String {
    /// The string without leading and trailing whitespace; returns `self` untouched (no copy, no
    /// `CharacterSet` work) in the common case where there is none.
    var trimmingWhitespace: String {
        guard let first = first, let last = last, first.isWhitespace || last.isWhitespace else { return self }
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        guard start < endIndex else { return "" }
        let end = lastIndex { !$0.isWhitespace } ?? start
        return String(self[start...end])
    }
}
