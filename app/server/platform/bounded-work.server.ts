/**
 * Work whose memory grows with its input (decoding an image) must not run
 * once per request: two 12-megapixel decodes at once would take a process
 * past its 200 MB (ADR 032). A BoundedWork runs at most `concurrency` tasks
 * at once and admits at most `capacity` callers in all, running or waiting.
 *
 * Admission is separate from running so a caller can be admitted before it
 * reads its input: a waiting upload holds its file in memory, so the bound
 * on admissions is also the bound on the files held. A caller that is not
 * admitted is refused at once (503) rather than queued without end.
 */
interface Admission {
  /** Runs the task when a slot is free (in the order of admission). */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Gives the place back; call it once, whether or not `run` was used or failed. */
  release(): void;
}

export class BoundedWork {
  private admitted = 0;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly capacity: number,
    readonly concurrency = 1,
  ) {
    if (!(concurrency >= 1 && capacity >= concurrency)) throw new RangeError("need capacity >= concurrency >= 1");
  }

  /** Callers admitted and not yet released (running, waiting, or still reading their input). */
  get size(): number {
    return this.admitted;
  }

  /** Tasks running now. */
  get active(): number {
    return this.running;
  }

  /** A place, or undefined when `capacity` callers already hold one. */
  tryAdmit(): Admission | undefined {
    if (this.admitted >= this.capacity) return undefined;
    this.admitted++;
    let released = false;
    return {
      run: (task) => this.runInSlot(task),
      release: () => {
        if (released) return;
        released = true;
        this.admitted--;
      },
    };
  }

  private async runInSlot<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so `running` never dips and no newcomer overtakes it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
