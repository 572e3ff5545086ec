package dev.ssdpulse.producer.device.engine;

class LibaioIoEngineTest extends AsyncIoEngineContract {
    @Override
    String unavailableReason() {
        return LibaioIoEngine.unavailableReason();
    }

    @Override
    AsyncIoEngineBase newEngine(int maxQueueDepth) {
        return new LibaioIoEngine(maxQueueDepth);
    }

    @Override
    String expectedName() {
        return "libaio";
    }
}
