import SpotIndex

/// What reading a possibly damaged index came to.
struct ReadOutcome {
    /// The error opening threw, if it did.
    var openError: IndexError?
    /// How many reads threw (each a corrupt IndexError).
    var readErrors = 0
    /// The reads that threw, as "what: section".
    var failures: [String] = []
    /// The sections whose checksum does not match.
    var badSections: [String] = []
}
