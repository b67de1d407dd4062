/// A buffer that `DispatchQueue.concurrentPerform`'s iterations write, each
/// at its own index: no two touch the same element, so it may cross threads.
package struct SharedBuffer<Element>: @unchecked Sendable {
  package let buffer: UnsafeMutableBufferPointer<Element>
  package init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}
