import SpotState

/// The state a candidate is published with: the first bytes of its index, which pair them, and
/// how to write it.
struct CandidateState {
    /// The candidate index's first 32 bytes.
    let identity: [UInt8]
    /// Writes the state (and its base when new) and returns the base it names.
    let write: (StatePairWriter) throws -> BaseReference
}

/// What a refresh with change files does.
enum ChangePlan {
    /// The published index's state has every change the folder has (at `sequence`).
    case unchanged(sequence: Int)
    /// Apply `files`, through sequence `newest`, to the published index and its state.
    case update(files: [String], newest: Int)
    /// Build from the inputs (why), recording `newest` as the sequence the inputs are as new as.
    case build(reason: String, newest: Int)
}

extension Refresh {
    /// What to do with the change `folder`: apply its changes newer than the published index's
    /// state; build from the inputs when nothing is published, the state is missing, damaged,
    /// not the published index's (after a rollback, say) or records no sequence, or with
    /// `--force`. Throws `missingChanges` for an unreadable state.txt or a gap in the sequence.
    func plan(_ folder: ReplicationFolder, published: Bool) throws(RefreshError) -> ChangePlan {
        let newest = try folder.newestSequence()
        guard published else { return .build(reason: "nothing published yet: a full build", newest: newest) }
        guard !force else { return .build(reason: "--force: a full build", newest: newest) }
        let metadata: StateMetadata
        do {
            metadata = try StateMetadata(try StatePair.open(forIndex: output))
        } catch {
            return .build(reason: "\(error): a full build", newest: newest)
        }
        guard let applied = metadata.sequence else {
            return .build(
                reason: "the published index's state records no replication sequence: a full build", newest: newest)
        }
        guard applied < newest else { return .unchanged(sequence: applied) }
        return .update(files: try folder.changes(after: applied, through: newest), newest: newest)
    }
}
