// What the harnesses share: starting libFuzzer, and splitting an input into
// reads of varied sizes.
import CLibFuzzer
import Foundation

/// Runs libFuzzer's driver (options, corpus, mutation loop) with `callback`.
/// Each harness's main.swift ends with this: SwiftPM makes the executable's
/// Swift entry point `main`, which displaces libFuzzer's own.
public func runLibFuzzer(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
}

/// Read lengths from 1 to `limit` (a power of two) drawn from one seed byte
/// by a tiny xorshift: varied, yet the same input always splits the same
/// way, so a crash reproduces. Seed 0 means one byte at a time.
public struct ChunkSizes {
  private var state: UInt8
  private let limit: Int

  public init(seed: UInt8, limit: Int) {
    state = seed
    self.limit = limit
  }

  public mutating func next() -> Int {
    guard state != 0 else { return 1 }
    state ^= state << 3
    state ^= state >> 5
    state ^= state << 1
    return Int(state) % limit + 1
  }
}
