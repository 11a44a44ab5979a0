import Datasync
import Streams
