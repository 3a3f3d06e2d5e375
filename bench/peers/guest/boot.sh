#!/bin/bash
# Entry point named by nocb.test= in bench/peers/run's boots: it runs the
# copy of peers.sh that the run froze into this boot's results folder, so
# editing the tree during a run cannot change a running guest.
exec bash "$NOCB_OUT/peers.sh"
