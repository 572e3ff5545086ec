package dev.ssdpulse.producer.device.guard;

/** The target may not be used as asked; the message names the target, the check that fired and the override. */
public final class TargetSafetyException extends Exception {
    public TargetSafetyException(String message) {
        super(message);
    }
}
