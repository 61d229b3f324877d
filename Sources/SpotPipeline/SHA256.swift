import CCrypto
import Foundation

/// SHA-256 from OpenSSL's libcrypto, fed in pieces: of the inputs a build reads and of its
/// pipeline file, recorded in the index's metadata.
public final class SHA256 {
    private let context: OpaquePointer

    /// A hasher that has been fed nothing.
    public init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Feeds `bytes` to the hasher.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
    }

    /// The digest as lowercase hex; the hasher is spent after.
    public func hexDigest() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest.prefix(Int(length)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The digest of `bytes`.
    public static func hex(of bytes: [UInt8]) -> String {
        let hasher = SHA256()
        bytes.withUnsafeBytes(hasher.update)
        return hasher.hexDigest()
    }
}

extension SHA256 {
    /// The digest of the file at `path`, read in 1 MiB pieces; nil when it cannot be read.
    public static func hex(ofFile path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let hasher = SHA256()
        do {
            // Foundation on Linux gives nil at the end of the file, on Darwin empty data.
            while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty { data.withUnsafeBytes(hasher.update) }
        } catch {
            return nil
        }
        return hasher.hexDigest()
    }
}
