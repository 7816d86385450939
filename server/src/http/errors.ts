import { messages } from '@huiyun/contract';
import { AppError } from '../db/errors.ts';

// The refusals of the HTTP API. AppError itself lives in db/errors.ts, below every layer that throws it.
export { AppError };

export const unauthorized = (message: string = messages.common.sessionExpired) => new AppError(message, 401);
export const forbidden = (message: string = messages.common.forbidden) => new AppError(message, 403);
export const notFound = (message: string = messages.common.notFoundRecord) => new AppError(message, 404);
export const conflict = (message: string) => new AppError(message, 409);
