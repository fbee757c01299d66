import { z } from 'zod';

/**
 * What the operator says about their institution, from their configuration file. Every
 * field but the name is optional, and a page leaves out a section whose data is missing:
 * public pages never show invented figures.
 */
export const siteSchema = z.object({
  institutionName: z.string().min(1).max(80),
  tagline: z.string().max(200).optional(),
  contactEmail: z.email().optional(),
  careersEmail: z.email().optional(),
  foundingYear: z.number().int().min(1800).max(2100).optional(),
  story: z.string().max(4000).optional(),
  mission: z.string().max(1000).optional(),
  vision: z.string().max(1000).optional(),
  whoWeAre: z.string().max(2000).optional(),
  leadership: z
    .array(z.object({ name: z.string().min(1).max(100), role: z.string().min(1).max(100) }))
    .max(20)
    .optional(),
  quickLinks: z
    .array(z.object({ label: z.string().min(1).max(60), url: z.string().min(1).max(500) }))
    .max(12)
    .optional(),
  depositInstructions: z.string().max(4000).optional(),
});
export type Site = z.infer<typeof siteSchema>;

export const devMailListSchema = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      createdAt: z.string(),
    }),
  ),
});
