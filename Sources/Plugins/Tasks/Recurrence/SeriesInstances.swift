/// Which of a rule's matches are a series' instances, for every expansion path (libical's
/// iterator and the hand-written `DayGrid`), so that they cannot count differently again.
///
/// RFC 5545, section 3.3.10: "The COUNT rule part defines the number of occurrences at which to
/// range-bound the recurrence. The DTSTART property value always counts as the first
/// occurrence." So DTSTART is instance 1 whether or not it matches the rule, and the rule's
/// matches after it fill instances 2 to COUNT. (The RFC calls the set "undefined" when DTSTART is
/// not on the rule, and clients differ: python-dateutil leaves DTSTART out, libical's iterator
/// starts at its first match. This plugin keeps DTSTART and counts it, as the RFC's sentence says.)
struct SeriesInstances {
    let anchor: WallTime
    let count: Int?
    /// Instances counted so far, DTSTART included.
    private(set) var produced = 0
    /// The rule matched DTSTART itself (DTSTART is "on the rule"), as far as the expansion looked.
    private(set) var startIsAMatch = false

    init(anchor: WallTime, count: Int?) {
        self.anchor = anchor
        self.count = count
    }

    /// DTSTART, instance 1.
    mutating func first() -> WallTime {
        produced = max(produced, 1)
        return anchor
    }

    /// COUNT is reached: no further match is an instance.
    var isComplete: Bool { count.map { produced >= $0 } ?? false }

    /// The next match of the rule, in order: the instance it is, or nil when it is DTSTART itself
    /// (already instance 1), before it, or past COUNT.
    mutating func admit(_ match: WallTime) -> WallTime? {
        if match == anchor { startIsAMatch = true }
        guard !isComplete, match > anchor else { return nil }
        produced += 1
        return match
    }
}
