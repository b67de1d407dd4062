/// A buffer that `DispatchQueue.concurrentPerform`'s iterations write, each
/// at its own index: no two touch the same element, so it may cross threads.
struct SharedBuffer<Element>: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<Element>
  init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}
