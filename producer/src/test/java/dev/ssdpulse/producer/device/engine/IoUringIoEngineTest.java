package dev.ssdpulse.producer.device.engine;

class IoUringIoEngineTest extends AsyncIoEngineContract {
    @Override
    String unavailableReason() {
        return IoUringIoEngine.unavailableReason();
    }

    @Override
    AsyncIoEngineBase newEngine(int maxQueueDepth) {
        return new IoUringIoEngine(maxQueueDepth);
    }

    @Override
    String expectedName() {
        return "io_uring";
    }
}
