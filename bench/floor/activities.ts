/** The floor's activity: does nothing (the floor measures orchestration only). */
export const floorActivities = {
  async noop(_input: { segmentId: string; step: number }): Promise<void> {},
};
export type FloorActivities = typeof floorActivities;
