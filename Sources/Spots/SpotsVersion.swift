/// The version of Spots: what `spots --version` prints and what each index records as its
/// generator.
public enum SpotsVersion {
    /// The release, as semantic versioning writes it.
    public static let version = "0.1.0"
}
