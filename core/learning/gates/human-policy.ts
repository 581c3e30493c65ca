import { z } from 'zod';
import { RevisionActionSchema, RevisionSourceSchema } from '../../schemas/revision';

/** The human gate's policy as data (configuration and workflow inputs validate it with these). */
export const CustomHumanGatePolicySchema = z
  .object({
    holdActions: z.array(RevisionActionSchema).optional(),
    holdSources: z.array(RevisionSourceSchema).optional(),
    /** JavaScript regular expression matched against the skill name. */
    holdNamePattern: z.string().max(500).optional(),
  })
  .strict();
export type CustomHumanGatePolicy = z.infer<typeof CustomHumanGatePolicySchema>;

export const HumanGatePolicySchema = z.union([z.enum(['none', 'create_only', 'always']), CustomHumanGatePolicySchema]);
export type HumanGatePolicy = z.infer<typeof HumanGatePolicySchema>;
