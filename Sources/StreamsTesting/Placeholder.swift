import Streams
