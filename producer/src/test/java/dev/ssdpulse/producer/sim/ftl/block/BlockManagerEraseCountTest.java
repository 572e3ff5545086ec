package dev.ssdpulse.producer.sim.ftl.block;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.sim.nand.NandGeometry;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BlockManagerEraseCountTest {

    /**
     * The incremental least erase count equals a scan of every usable block, reserved blocks (never erased) left out.
     */
    @Test
    void minEraseCountIsTheLeastOverBlocksThatCanHoldData() {
        NandGeometry geometry = new NandGeometry(1, 2, 2, 8, 4, 8192);
        BlockManager blocks = new BlockManager(geometry, 3);
        SplittableRandom random = new SplittableRandom(3);
        List<Integer> closed = new ArrayList<>();
        for (int op = 0; op < 5_000; op++) {
            if (blocks.freeBlocks() > 0 && (closed.isEmpty() || random.nextBoolean())) {
                int block = blocks.allocate(random.nextInt(geometry.planes()));
                blocks.markClosed(block, op);
                closed.add(block);
            } else {
                // erase a random closed block, so counts drift apart unevenly
                blocks.release(closed.remove(random.nextInt(closed.size())));
            }
            int min = Integer.MAX_VALUE;
            for (int b = 0; b < geometry.blocks(); b++) {
                // the top block of planes 0..2 is reserved
                boolean reserved = b % geometry.blocksPerPlane() == geometry.blocksPerPlane() - 1
                        && b / geometry.blocksPerPlane() < 3;
                if (!reserved) {
                    min = Math.min(min, blocks.eraseCount(b));
                }
            }
            assertThat(blocks.minEraseCount()).as("op %d", op).isEqualTo(min);
        }
        assertThat(blocks.minEraseCount()).isPositive();
    }
}
