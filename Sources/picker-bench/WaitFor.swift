import Foundation

/// Runs async work to its end from the benchmarks' synchronous code and
/// hands back its result (or its error) to the waiting thread.
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
  let box = ResultBox<T>()
  Task.detached {
    do { box.set(.success(try await body())) } catch { box.set(.failure(error)) }
  }
  return try box.wait()
}

private final class ResultBox<T>: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private var result: Result<T, Error>?

  func set(_ value: Result<T, Error>) {
    result = value
    done.signal()
  }

  func wait() throws -> T {
    done.wait()
    return try result!.get()
  }
}
