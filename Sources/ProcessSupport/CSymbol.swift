#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's C symbols, looked up by name when first used: for functions that the
/// installed library may lack (expat's `XML_SetReparseDeferralEnabled`, from 2.6 on) or that
/// Swift's Glibc module does not declare (glibc's `malloc_trim` and `mallopt`).
public enum CSymbol {
    /// The C function `name` as the process has it loaded, as `Function` (a `@convention(c)`
    /// function type of its signature), or nil where the process has none.
    public static func function<Function>(named name: String) -> Function? {
        #if os(Linux)
            let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        #else
            let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #endif
        guard let symbol = dlsym(everywhere, name) else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }
}
