/// The outcome of a Datasync operation, passed to the `then` callbacks.
public typealias WebcomResult<T> = Result<T, WebcomError>
