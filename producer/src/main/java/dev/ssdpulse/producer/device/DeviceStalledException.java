package dev.ssdpulse.producer.device;

/** Outstanding I/Os saw no completion within the run's I/O timeout: the device stopped responding. */
final class DeviceStalledException extends RuntimeException {
    DeviceStalledException(String message) {
        super(message, null, false, false);
    }

    @Override
    public String toString() {
        return getMessage();
    }
}
