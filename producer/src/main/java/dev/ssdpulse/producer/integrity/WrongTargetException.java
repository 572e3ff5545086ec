package dev.ssdpulse.producer.integrity;

/** The target holds no stamp of the run: it is not the device the run wrote (or it was overwritten since). */
public final class WrongTargetException extends RuntimeException {
    public WrongTargetException(String message) {
        super(message);
    }
}
