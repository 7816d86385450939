import { machineFleet, type FleetOptions, type Machine } from './terminal-machines.ts';

// One load process of the terminal bench (BENCH_LOAD_PROCESSES): connects its slice of the machines,
// says so, buys on 'go' until the time it is given, then sends back what its purchases took.

export type LoadStart = FleetOptions & { machines: Machine[] };
export type LoadGo = { endAt: number };

process.once('message', (start: LoadStart) => {
  void (async () => {
    const fleet = machineFleet(start);
    await fleet.connect(start.machines);
    process.once('message', (go: LoadGo) => {
      void fleet.run(start.machines, go.endAt).then((result) => {
        fleet.close();
        process.send!({ type: 'done', result }, () => process.exit(0));
      });
    });
    process.send!({ type: 'connected' });
  })();
});
